import AnimKit

/// `--max-bytes N`: the library's size ladder (`Transcoder.write(fitting:)`)
/// tried until the output fits; the one chosen is then written as any other
/// output. Says each step tried and what it chose, or fails when even the
/// smallest setting does not fit.
enum MaxBytes {
    static func write(_ transcoder: Transcoder, to out: String, _ args: ParsedArguments) throws -> Int32 {
        let text = args[.maxBytes] ?? ""
        let limit = try ByteSize.parse(text, option: "--max-bytes")
        guard limit > 0 else { throw UsageError(message: "--max-bytes needs a size above 0, not '\(text)'") }
        if args[.delay] != nil { throw UsageError(message: "give --max-bytes or --delay, not both") }
        let started = Measure.milliseconds()
        var label = ""
        var progress: Progress?
        defer { progress?.end() }
        let report = try transcoder.write(fitting: limit) { event in
            switch event {
            case .step(let i, let n): label = "--max-bytes step \(i + 1)/\(n)"
            case .frames(let done, let total):
                if progress == nil { progress = Progress(total: total, label: label) }
                progress?.update(done)
            case .tried(let attempt, let n):
                progress?.end()
                progress = nil
                Output.err(
                    "anim: --max-bytes \(limit): \(describe(attempt.setting)) (step \(attempt.step + 1) of \(n)): \(attempt.bytes) bytes\n"
                )
            }
        }
        guard let setting = report.setting, let data = report.data else {
            let last = report.attempts.last
            throw CommandFailure(
                "--max-bytes \(limit): even the smallest setting (\(last.map { describe($0.setting) } ?? "")) makes "
                    + "\(last?.bytes ?? 0) bytes; nothing written")
        }
        try OutputPath.write(data, to: out)
        if !args.quiet { Output.err("anim: \(out): \(data.count) bytes (--max-bytes \(limit)) with \(describe(setting))\n") }
        if args.flag(.encodeStats) && !args.inBatch {
            let attempts = report.attempts.map {
                JSONValue.object([("setting", .string(describe($0.setting))), ("bytes", .int($0.bytes))])
            }
            Measure.report(
                [("attempts", .array(attempts)), ("chosen", .string(describe(setting))), ("bytesWritten", .int(data.count))],
                since: started)
        }
        return 0
    }

    /// A setting as the options that give it, and factors.
    static func describe(_ s: SizeSetting) -> String {
        var parts: [String] = []
        if s.lossy > 0 { parts.append("--lossy \(s.lossy)") }
        if !s.lossless { parts.append("--quality \(s.quality)") }
        if s.maxColors < 256 { parts.append("--colors \(s.maxColors)") }
        if s.rate < 1 { parts.append("frame rate ×\((s.rate * 100).rounded() / 100)") }
        if s.scale < 1 { parts.append("--scale \(s.scale)") }
        return parts.isEmpty ? "the settings given" : parts.joined(separator: " ")
    }
}
