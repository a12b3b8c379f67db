import AnimKit
import AnimTerminal

/// Writes a `Transcoder`'s frames to OUT with a progress bar, its
/// temporary file registered with `TemporaryFileGuard`; says what became
/// of OUT when it fails, and how close a lossy output came. In a batch no
/// bar and no `--stats` line (the batch's are shown).
enum EncodeRun {
    @discardableResult
    static func write(_ transcoder: Transcoder, to out: String, label: String, _ args: ParsedArguments) throws -> TranscodeReport
    {
        let start = Measure.milliseconds()
        let existed = OutputPath.status(out).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
        var slot: TemporaryFileGuard.Slot?
        defer { TemporaryFileGuard.release(slot) }
        var destination: ImageDestination?
        var progress = Progress(total: transcoder.frameCount, label: label, enabled: !args.inBatch && !args.quiet)
        defer { progress.end() }
        let output = TranscodeOutput.destination { format, options in
            var options = options
            options.frameCount = transcoder.frameCount  // for APNG to a pipe or device (see EncodingOptions)
            let made = try TemporaryFileGuard.protect(&slot) {
                // Standard output: made in memory, then written, so that the
                // bytes are those a file would get (APNG chooses its pixel
                // format after the frames, reading back what it wrote).
                out == "-"
                    ? try ImageDestination(format: format, options: options, name: "<stdout>")
                    : try ImageDestination(path: out, format: format, options: options)
            }
            destination = made
            return made
        }
        let report: TranscodeReport
        do {
            report = try transcoder.write(to: output) { if case .frames(let n, _) = $0 { progress.update(n) } }
            if out == "-", let data = report.data { try OutputPath.write(data, to: out) }
            if args.flag(.encodeStats) && !args.inBatch, let d = destination {
                let written = [
                    ("framesAdded", d.framesAdded), ("framesWritten", d.framesWritten), ("bytesWritten", d.bytesWritten),
                ]
                Measure.report(written.map { ($0, .int($1)) }, since: start)
            }
        } catch {
            guard let destination else { throw error }
            // Say what became of OUT (a device or pipe keeps what reached it).
            let left = existed ? "nothing written: \(out) is as it was" : "nothing written: no \(out) was created"
            throw CommandFailure(error, left: destination.temporaryPath == nil ? "" : left)
        }
        // OUT is in place from here on: an error measuring it leaves it there.
        let lossy = transcoder.options.lossy
        if lossy > 0 && destination?.temporaryPath != nil {
            // How close a lossy output came to its frames: the mean PSNR of
            // the frames as decoded against those given, and the lowest.
            let c = try transcoder.comparison(withFile: out)
            let db = { (v: Double) in v >= ShownComparison.identical ? "identical" : String(format1: v) + " dB" }
            Output.err(
                "anim: \(out): lossy \(lossy): mean PSNR \(db(c.meanPSNR)) against the input frames"
                    + (c.firstDifferent == nil ? "\n" : " (lowest \(db(c.minPSNR)), frame \(c.worstFrame))\n"))
        }
        return report
    }
}
