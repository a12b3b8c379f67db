import AnimKit

/// `anim convert IN OUT`: any format anim reads into any it writes.
enum ConvertCommand: Command {
    static let info = CommandInfo(
        name: "convert", summary: "convert an animation to GIF, APNG or WebP",
        usage: """
            usage: anim convert IN OUT [options]

            Writes every frame of IN (GIF, APNG, PNG or WebP) to OUT with its
            duration (as browsers play it), the loop count and the metadata
            (colour profile, EXIF, XMP, text: what OUT's format can hold; what it
            cannot is named on stderr), unless options say otherwise. GIF to GIF
            keeps IN's images and delays as stored (an image without delay stays
            one), and every pixel where a frame's colours fit a table. OUT is
            written to a temporary file and renamed at the end.

            options:
            \(EncodingArguments.usage)
            \(EditArguments.usage)
            \(MaxBytes.usage)
              --strip              write no metadata
              -h, --help           show this help

            """,
        spec: OptionSpec(
            flags: EncodingArguments.flags.union(EditArguments.flags).union(["--strip"]),
            valued: EncodingArguments.valued.union(EditArguments.valued).union(["--max-bytes"]), positional: 2...2))

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let input = args.positional[0]
        let out = args.positional[1]
        var (format, options) = try EncodingArguments.parse(args, output: out)
        // --fps resamples here (EncodingArguments checked the number).
        let edits = try EditArguments.parse(args, fps: args.values["--fps"].flatMap(Double.init))
        try OutputPath.check(out, notAnyOf: [input])
        var source = try ImageSource(path: input, options: args.decoding())
        let reshaped = !edits.geometry.isIdentity(width: source.outputWidth, height: source.outputHeight)
        if source.format == .gif && format == .gif && !edits.changesTime {
            // The source's images and delays, as stored.
            source = try ImageSource(path: input, options: args.decoding(.imagesAsStored))
        }
        let edited: EditedFrames
        do { edited = try EditedFrames(source, edits: edits) } catch let e as FrameSelection.Problem {
            throw UsageError(message: "--frames: \(e)")
        } catch let e as FrameGeometry.Problem {
            throw UsageError(message: "\(args.values["--crop"] != nil ? "--crop" : "size"): \(e)")
        }
        Output.warn(source, input)
        if args.values["--loop"] == nil {
            // The library's mapping: WebP counts to 65535 plays, GIF to 65536.
            options.plays = EncodingOptions.plays(source.plays, in: format).plays
        }
        if !args.flag("--strip") {
            options.metadata = source.metadata
            for lost in source.metadata.lost(in: format) { Output.err("anim: \(out): not kept: \(lost)\n") }
        }
        if let text = args.values["--max-bytes"] {
            let limit = try ByteSize.parse(text, option: "--max-bytes")
            guard limit > 0 else { throw UsageError(message: "--max-bytes needs a size above 0, not '\(text)'") }
            if args.values["--delay"] != nil { throw UsageError(message: "give --max-bytes or --delay, not both") }
            let started = Measure.milliseconds()
            let choice = try MaxBytes.choose(limit: limit, format: format, options: options, edits: edits, source: source)
            try AtomicFile.write(choice.data, to: out)
            Output.err("anim: \(out): \(choice.data.count) bytes (--max-bytes \(limit)) with \(choice.setting)\n")
            if args.flag("--stats") {
                let attempts = choice.attempts.map {
                    JSONValue.object([("setting", .string("\($0.setting)")), ("bytes", .int($0.bytes))])
                }
                Output.err(
                    JSONValue.object([
                        ("attempts", .array(attempts)), ("chosen", .string("\(choice.setting)")),
                        ("bytesWritten", .int(choice.data.count)),
                        ("seconds", .number((Measure.milliseconds() - started).rounded() / 1000)),
                        ("peakRSSBytes", .int(Measure.peakRSS())),
                    ]).text + "\n")
            }
            return 0
        }
        // --delay: every frame that long, whatever the edits made.
        let delay = args.values["--delay"] != nil
        options.defaultDuration = delay ? options.defaultDuration : EncodingOptions().defaultDuration
        // The global table (from the source's frames: not once they are
        // resized); GIF to GIF exact colours and the delays as stored,
        // unless edits or --delay set new ones.
        if format == .gif && !reshaped { source.prepareGIF(&options, keepingDelays: !delay && !edits.changesTime) }
        try EncodeRun.write(
            count: edited.count, to: out, format: format, options: options, label: "convert",
            stats: args.flag("--stats"), reading: source.options
        ) { i in
            (try edited.frame(at: i), delay ? nil : edited.duration(at: i))
        }
        if let error = source.indexError {
            Output.err("anim: \(error.description) (the frames before it were converted)\n")
            return 1
        }
        return 0
    }
}
