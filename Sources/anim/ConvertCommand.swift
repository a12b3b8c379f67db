import AnimKit

/// `anim convert IN OUT`: any format anim reads into any it writes; with
/// `--out-dir`, many files as one batch.
enum ConvertCommand: Command {
    static let info = CommandInfo(
        name: "convert", summary: "convert an animation to GIF, APNG or WebP",
        synopsis: ["IN OUT [options]", "IN -o OUT [options]", "IN... --out-dir DIR [--format F] [options]"],
        description: """
            Writes every frame of IN (GIF, APNG, PNG or WebP) to OUT with its
            duration (as browsers play it), the loop count and the metadata
            (colour profile, EXIF, XMP, text: what OUT's format can hold; what it
            cannot is named on stderr), unless options say otherwise. GIF to GIF
            keeps IN's images and delays as stored (an image without delay stays
            one), and every pixel where a frame's colours fit a table. OUT is
            written to a temporary file and renamed at the end; - is standard
            input (IN) or output (OUT). An option OUT's format cannot honour is
            refused.

            With --out-dir, each IN is written into DIR in the format --format
            names (default: its own), on every core; a file that fails is
            reported and the others go on (exit status 1 at the end).
            """,
        groups: [
            OptionGroup(title: "output", options: [.output, .outDir, .skipExisting, .strip, .maxBytes]), Option.encoding,
            Option.edits,
        ],
        operands: 1...Int.max)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if let dir = args[.outDir] {
            if args[.output] != nil { throw UsageError(message: "give -o or --out-dir, not both") }
            if args.operands.contains("-") { throw UsageError(message: "--out-dir takes files, not standard input (-)") }
            if args[.maxBytes] != nil && args.operands.count > 1 {
                throw UsageError(message: "--max-bytes is for one file at a time")
            }
            _ = try EditArguments.parse(args)  // usage errors before any file is read
            let format = try args[.format].map { try EncodingArguments.parse(args, output: "x.\($0)").0 }
            let items = args.operands.map { input in
                // A file that cannot be read fails in its turn, as the others go on.
                let own = format ?? (try? formatOf(input)) ?? OutputFormat(pathExtension: input) ?? .gif
                return Batch.Item(input: input, output: Batch.output(for: input, in: dir, format: own))
            }
            try Batch.refuseCollisions(items)
            try OutputPath.makeFolder(dir)
            return Batch(label: "convert", args, stats: .encodeStats).run(items) {
                try convert($0.input, to: $0.output, $1) == 0 ? .written : .partial
            }
        }
        let (input, out) = try OutputPath.operands(args)
        return try convert(input, to: out, args)
    }

    /// The format a batch writes `input` in without --format: its own.
    static func formatOf(_ input: String) throws -> OutputFormat {
        let source = try ImageSource.opening(path: input, throughFrame: 0, options: DecodingOptions())
        return source.format.outputFormat ?? .apng
    }

    /// One file; in a batch quietly (no progress bar, the stats line is the batch's).
    static func convert(_ input: String, to out: String, _ args: ParsedArguments) throws -> Int32 {
        var (format, options) = try EncodingArguments.parse(args, output: out)
        options.oneThread = args.inBatch
        // --fps resamples here (the declaration checked the number).
        let edits = try EditArguments.parse(args, fps: args.number(.fps))
        try OutputPath.check(out, notAnyOf: [input])
        var source = try ImageSource(path: input, options: args.decoding())
        let reshaped = !edits.geometry.isIdentity(width: source.outputWidth, height: source.outputHeight)
        if source.format.outputFormat == format && format.rewritesAsStored && !edits.changesTime {
            // The source's images and delays, as stored.
            source = try ImageSource(path: input, options: args.decoding(.imagesAsStored))
        }
        // --max-memory: the encoder and the frames handed to it first,
        // the source's decoding ahead with what is left.
        let edited = try EditArguments.fitting(args) { try EditedFrames(source, edits: edits) }
        let encoding = MemoryBudget.encoding(
            format: format, width: edited.width, height: edited.height, count: edited.count,
            inputBytes: Batch.size(input), frames: reshaped ? 3 : 2)
        source = try MemoryBudget.fit(source, reserving: encoding)
        // --loops, --strip and --delay (every frame that long, whatever
        // the edits made) replace what is kept.
        let t = try Transcoder(
            source, format: format, options: options, edits: edits, keepingPlays: args[.loops] == nil,
            keepingMetadata: !args.flag(.strip), keepingDurations: args[.delay] == nil)
        if !args.quiet {
            Output.warn(source, input)
            for case .notKept(let lost) in t.adjustments { Output.err("anim: \(out): not kept: \(lost)\n") }
        }
        if args[.maxBytes] != nil { return try MaxBytes.write(t, to: out, args) }
        let report = try EncodeRun.write(t, to: out, label: "convert", args)
        if let error = report.sourceError {
            Output.err("anim: \(error.description) (the frames before it were converted)\n")
            return 1
        }
        return 0
    }
}

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
