extension Transcoder {
    /// Writes to memory at the first setting of the size ladder
    /// (`SizeLadder.settings`) whose output fits `limit` bytes, trying as
    /// few settings as a binary search along the ladder needs; the report
    /// holds the output, the setting and every attempt, or no setting and
    /// no data when even the smallest does not fit. Each attempt writes the
    /// source's frames (this transcoder's edits, the step's frame rate and
    /// scale) with `options.frameCount` set to their count; `progress`
    /// hears of each step and of its frames. Frames given by a function
    /// (`anim encode`) have no ladder: none fits.
    public func write(fitting limit: Int, progress: (TranscodeProgress) -> Void = { _ in }) throws -> TranscodeReport {
        var report = TranscodeReport(frames: 0, adjustments: adjustments, sourceError: damage.withLock { $0 })
        guard let source else { return report }
        let ladder = SizeLadder.settings(format: format, options: options)
        let frames = SizeLadderFrames(source.edited, edits: source.edits, durations: keepsDurations)
        var kept: (step: Int, data: [UInt8], frames: Int)?
        var scanned: [Int: EncodingOptions.GIF.Prescan] = [:]
        let found = try SizeLadder.search(count: ladder.count, limit: limit) { i in
            let s = ladder[i]
            progress(.step(i, of: ladder.count))
            let reader = try frames.reader(for: s)
            var o = s.applied(to: options)
            o.frameCount = reader.count
            o.prescan = nil
            // GIF: one table for all frames when the source's colours allow
            // (as a plain write does), while the frames keep the source's
            // size; scanned once for each colour count, all it depends on.
            if s.scale == 1 && !source.reshapes {
                o.prescan = scanned[s.maxColors]
                source.read.prepare(&o, for: format, keepingDelays: false)
                scanned[s.maxColors] = o.prescan
            }
            let out = try ImageDestination(format: format, options: o)
            let n = try reader.frames.write(
                count: reader.count, to: out, ahead: false, added: { progress(.frames(written: $0, of: reader.count)) }
            ).frames
            let bytes = out.data?.count ?? Int.max
            report.attempts.append(SizeAttempt(step: i, setting: s, bytes: bytes))
            // Only the latest that fits is kept: the search's answer is the
            // last setting it found fitting.
            if bytes <= limit, let data = out.data { kept = (i, data, n) }
            progress(.tried(report.attempts[report.attempts.count - 1], of: ladder.count))
            return bytes
        }
        if let found, let kept, kept.step == found {
            (report.setting, report.data, report.frames) = (ladder[found], kept.data, kept.frames)
        }
        return report
    }
}
