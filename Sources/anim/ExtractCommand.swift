@_spi(AnimTools) import AnimKit

/// `anim extract FILE OUTDIR [--frames A-B]`: every frame as a PNG.
enum ExtractCommand: Command {
    static let name = "extract"
    static let summary = "write every frame as a full-canvas RGBA PNG"
    static let usage = """
        usage: anim extract FILE OUTDIR [--frames A-B] [--max-size N]

        Writes OUTDIR/frame-00000.png, frame-00001.png, ... : one full-canvas
        8-bit RGBA PNG per frame, composited as the animation shows it. OUTDIR is
        created if needed. If the file is damaged, the frames decoded before the
        damage are written, then the error is reported (exit status 1).
        FILE may be - for standard input: each frame is written as soon as it
        has arrived.

        options:
          --frames A-B   only frames A to B (0-based, inclusive); also A- or A
          --max-size N   downsample frames to fit N×N pixels (area average,
                         alpha-weighted; never enlarges)
          -h, --help     show this help

        """
    static let spec = OptionSpec(valued: ["--frames", "--max-size"], positional: 2...2)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var options = Limits.decoding()
        if args.values["--max-size"] != nil { options.maxPixelSize = try args.int("--max-size", default: 0) }
        let dir = args.positional[1]
        if args.positional[0] == "-" { return try extractStream(args, dir: dir, options: options) }
        let source = try ImageSource(path: args.positional[0], options: options)
        Output.warn(source, args.positional[0])
        let range = try frameRange(args.values["--frames"], count: source.frameCount)
        try PNGFile.makeDirectory(dir)
        for i in range { try write(source, frame: i, dir: dir) }
        if let error = source.indexError, range.upperBound >= source.frameCount {
            Output.err("anim: \(error.description)\n")
            return 1
        }
        return 0
    }

    /// Standard input: frames are written as they complete.
    static func extractStream(_ args: ParsedArguments, dir: String, options: DecodingOptions) throws -> Int32 {
        let wanted = try args.values["--frames"].map { try frameRange($0, count: Int.max) } ?? 0..<Int.max
        try PNGFile.makeDirectory(dir)
        let incremental = IncrementalImageSource(name: "<stdin>", options: options)
        var next = wanted.lowerBound
        func writeReady() throws {
            guard let source = incremental.source else { return }
            while next < min(source.frameCount, wanted.upperBound) {
                try write(source, frame: next, dir: dir)
                next += 1
            }
        }
        try StandardInput.feed(incremental) { try writeReady() }
        try writeReady()
        if let error = incremental.error {
            Output.err("anim: \(error.description)\n")
            return 1
        }
        return 0
    }

    static func write(_ source: ImageSource, frame i: Int, dir: String) throws {
        let image = try source.frame(at: i)
        let name = "frame-" + String(repeating: "0", count: max(0, 5 - String(i).count)) + String(i) + ".png"
        try PNGFile.write(image, to: dir + "/" + name)
    }

    static func frameRange(_ text: String?, count: Int) throws -> Range<Int> {
        guard let text else { return 0..<count }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let a = Int(parts[0]), a >= 0 else {
            throw UsageError(message: "--frames needs A-B, A- or A, not '\(text)'")
        }
        var b = a
        if parts.count == 2 {
            if parts[1].isEmpty {
                b = count - 1
            } else {
                guard let v = Int(parts[1]), v >= a else { throw UsageError(message: "--frames needs A ≤ B, not '\(text)'") }
                b = v
            }
        }
        guard a < count else {
            throw UsageError(message: "--frames \(text): the file has \(count) frame\(count == 1 ? "" : "s")")
        }
        return a..<(min(b, count - 1) + 1)
    }
}
