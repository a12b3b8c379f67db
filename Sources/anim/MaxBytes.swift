import AnimKit

/// `--max-bytes N`: the settings of `SizeLadder` tried in memory (a binary
/// search along the ladder) until the output fits; the one chosen is then
/// written as any other output. Says what it chose, or fails when even the
/// smallest setting does not fit.
enum MaxBytes {
    struct Choice {
        var setting: SizeSetting
        var data: [UInt8]
        /// Each setting tried, in the order tried, and its output's size.
        var attempts: [(setting: SizeSetting, bytes: Int)]
    }

    /// Frames kept between attempts that read the same frames (quality and
    /// colours change only the encoding): decoded and edited once, while
    /// they fit `budget` bytes.
    final class FrameMemo {
        static let budget = 256 << 20
        private var key: (rate: Double, scale: Double)?
        private var frames: [(RGBAImage, Duration)]?

        func frames(
            rate: Double, scale: Double, _ make: () throws -> EditedFrames
        ) throws -> (count: Int, frame: (Int) throws -> (RGBAImage, Duration)) {
            if let key, key == (rate, scale), let frames { return (frames.count, { frames[$0] }) }
            let edited = try make()
            let bytes = edited.count * max(edited.width * edited.height * 4, 1)
            guard bytes <= Self.budget else {
                return (edited.count, { (try edited.frame(at: $0), edited.duration(at: $0)) })
            }
            let all = try (0..<edited.count).map { (try edited.frame(at: $0), edited.duration(at: $0)) }
            key = (rate, scale)
            frames = all
            return (all.count, { all[$0] })
        }
    }

    /// The first setting of the ladder whose output fits `limit`, and that
    /// output (frames: `edits` over `source`, as `convert` reads them).
    static func choose(
        limit: Int, format: OutputFormat, options: EncodingOptions, edits: FrameEdits, source: ImageSource
    ) throws -> Choice {
        let ladder = SizeLadder.settings(format: format, options: options)
        let plain = try EditedFrames(source, edits: edits)
        let (crop, baseWidth, baseHeight) = try edits.geometry.resolve(width: source.outputWidth, height: source.outputHeight)
        let seconds = Double(plain.timeline.total.components.seconds) + Double(plain.timeline.total.components.attoseconds) / 1e18
        let meanRate = edits.fps ?? (seconds > 0 ? Double(plain.count) / seconds : 10)
        var sizes: [Int: Int] = [:]
        var outputs: [Int: [UInt8]] = [:]
        func editsFor(_ s: SizeSetting) -> FrameEdits {
            var e = edits
            if s.rate < 1 { e.fps = meanRate * s.rate }
            if s.scale < 1 {
                e.geometry = FrameGeometry(
                    crop: crop,
                    size: .resize(
                        width: max(1, Int((Double(baseWidth) * s.scale).rounded())),
                        height: max(1, Int((Double(baseHeight) * s.scale).rounded()))),
                    filter: edits.geometry.filter)
            }
            return e
        }
        let memo = FrameMemo()
        var attempts: [(setting: SizeSetting, bytes: Int)] = []
        let found = try SizeLadder.search(count: ladder.count, limit: limit) { i in
            let s = ladder[i]
            let frames = try memo.frames(rate: s.rate, scale: s.scale) { try EditedFrames(source, edits: editsFor(s)) }
            var o = s.applied(to: options)
            o.frameCount = frames.count
            o.prescan = nil
            // GIF: one table for all frames when the source's colours allow
            // (as convert does), while the frames keep the source's size.
            if s.scale == 1 && edits.geometry.isIdentity(width: source.outputWidth, height: source.outputHeight) {
                source.prepare(&o, for: format, keepingDelays: false)
            }
            let out = try ImageDestination(format: format, options: o)
            var progress = Progress(total: frames.count, label: "--max-bytes step \(i + 1)/\(ladder.count)")
            defer { progress.end() }
            try out.write(count: frames.count, added: { progress.update($0) }, frame: { try frames.frame($0) })
            let n = out.data?.count ?? Int.max
            sizes[i] = n
            attempts.append((s, n))
            // Only the latest that fits is kept: the search's answer is the
            // last setting it found fitting.
            if n <= limit, let d = out.data { outputs = [i: Array(d)] }
            progress.end()
            Output.err("anim: --max-bytes \(limit): \(s) (step \(i + 1) of \(ladder.count)): \(n) bytes\n")
            return n
        }
        guard let found else {
            let last = ladder.count - 1
            throw MaxBytesFailure(
                message:
                    "--max-bytes \(limit): even the smallest setting (\(ladder[last])) makes \(sizes[last] ?? 0) bytes; nothing written"
            )
        }
        guard let data = outputs[found] else {
            throw MaxBytesFailure(message: "--max-bytes \(limit): the output of step \(found + 1) was not kept")
        }
        return Choice(setting: ladder[found], data: data, attempts: attempts)
    }
}

struct MaxBytesFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
