import AnimKit

/// `anim optimize FILE [OUT]`: the same animation in its own format, in the
/// smallest lossless form anim can write, or the input kept.
enum OptimizeCommand: Command {
    static let info = CommandInfo(
        name: "optimize", summary: "rewrite an animation smaller, in its own format, without changing a pixel",
        usage: """
            usage: anim optimize FILE [OUT] [--effort N]

            Writes FILE again in its own format (GIF, APNG, WebP as lossless) with
            every size search anim has, keeping each frame's pixels and duration,
            the loop count and the metadata. The result is decoded and compared
            with FILE, frame by frame, before it is used: only an output that is
            smaller and shows exactly the same replaces FILE (or is written to
            OUT); otherwise FILE is kept and anim says why (exit status 0).
            Written through a temporary file in the same folder, renamed at the end.

            options:
              --effort N           0-9 (default 9): see anim encode --help
              -h, --help           show this help

            """,
        spec: OptionSpec(flags: [], valued: ["--effort"], positional: 1...2))

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let input = args.positional[0]
        // A link (FILE or OUT) stays a link: the file it names is replaced.
        let out = LinkTarget.resolve(args.positional.count > 1 ? args.positional[1] : input)
        let inPlace = out == LinkTarget.resolve(input)
        var source = try ImageSource(path: input, options: args.decoding())
        let format: OutputFormat = source.format == .gif ? .gif : source.format == .webp ? .webp : .apng
        // A GIF's images and delays as stored: the rewrite keeps them, and
        // is compared with them.
        let reading = format == .gif ? args.decoding(.imagesAsStored) : args.decoding()
        if format == .gif { source = try ImageSource(path: input, options: reading) }
        if let error = source.indexError { throw error }  // a damaged file is not rewritten
        Output.warn(source, input)
        var options = EncodingOptions()
        options.lossless = true
        options.quality = 100
        options.effort = try args.int("--effort", default: 9, min: 0, max: 9)
        let folder = out.contains("/") ? String(out[..<out.lastIndex(of: "/")!]) : "."
        let candidate = folder + "/.anim-optimize-\(getpid())." + (format == .apng ? "png" : format.rawValue)
        defer { unlink(candidate) }
        let report = try source.transcode(toPath: candidate, format: format, options: options)
        let before = fileSize(input)
        let after = fileSize(candidate)
        let written = try ImageSource(path: candidate, options: reading)
        if let difference = try firstDifference(source, written) {
            Output.err("anim: \(input): kept: the rewrite would change \(difference)\n")
            if !inPlace { try FileCopy.copy(input, to: out) }
        } else if after >= before {
            Output.err("anim: \(input): kept: \(before) bytes, the rewrite is \(after)\n")
            if !inPlace { try FileCopy.copy(input, to: out) }
        } else {
            guard rename(candidate, out) == 0 else {
                throw AnimError.io(path: out, operation: "rename", errno: errno, message: String(cString: strerror(errno)))
            }
            let saved = Double(before - after) * 100 / Double(max(before, 1))
            Output.err(
                "anim: \(out): \(before) -> \(after) bytes (\(String(format1: saved))% smaller)"
                    + (report.adjustments.isEmpty ? "" : "; " + report.adjustments.joined(separator: "; ")) + "\n")
        }
        return 0
    }

    /// What differs between the two animations as shown (frame at each of
    /// `a`'s frame starts, the total duration, the plays), or nil.
    static func firstDifference(_ a: ImageSource, _ b: ImageSource) throws -> String? {
        guard a.plays == b.plays else { return "the play count" }
        let total = { (s: ImageSource) in s.frames.map(\.duration).reduce(.zero, +) }
        guard total(a) == total(b) else { return "the total duration" }
        guard a.metadata == b.metadata else { return "the metadata" }
        let shown = try ShownComparison.compare(a, b)
        return shown.firstDifferent.map { "frame \($0)" }
    }

    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }
}
