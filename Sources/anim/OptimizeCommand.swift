import AnimKit

/// `anim optimize FILE [OUT]`: the same animation in its own format, in the
/// smallest lossless form anim can write, or the input kept; several files
/// as one batch.
enum OptimizeCommand: Command {
    static let info = CommandInfo(
        name: "optimize", summary: "rewrite an animation smaller, in its own format, without changing a pixel",
        synopsis: [
            "FILE [OUT] [options]", "FILE -o OUT [options]", "FILE FILE FILE... [options]", "FILE... --out-dir DIR [options]",
        ],
        description: """
            Writes FILE again in its own format (GIF, APNG, WebP as lossless) with
            every size search anim has, keeping each frame's pixels and duration,
            the loop count and the metadata. The result is decoded and compared
            with FILE, frame by frame, before it is used: only an output that is
            smaller and shows exactly the same replaces FILE (or is written to
            OUT); otherwise FILE is kept and anim says why (exit status 0).
            Written through a temporary file in the same folder, renamed at the end.

            Three or more FILEs (or any number with --out-dir) are a batch: each is
            optimized in place (or into DIR) on every core; a file that fails is
            reported and the others go on (exit status 1 at the end).
            """,
        groups: [
            OptionGroup(
                title: "options",
                options: [.output, .outDir, .skipExisting, .optimizeEffort, .optimizeStats])
        ],
        operands: 1...Int.max)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let files = args.operands
        if args[.outDir] != nil || files.count > 2 {
            if args[.output] != nil { throw UsageError(message: "-o names one output: not for a batch") }
            if files.contains("-") { throw UsageError(message: "a batch takes files, not standard input (-)") }
            let dir = args[.outDir]
            if let dir { try OutputPath.makeFolder(dir) }
            let items = files.map { f in
                Batch.Item(input: f, output: dir.map { OutputPath.joined($0, OutputPath.baseName(f)) } ?? f)
            }
            if args.flag(.skipExisting) && dir == nil { throw UsageError(message: "--skip-existing is for --out-dir") }
            try Batch.refuseCollisions(items)
            return Batch(label: "optimize", args, stats: .optimizeStats).run(items) { try optimize($0.input, to: $0.output, $1) }
        }
        let (input, out) = try OutputPath.operands(args, inPlace: true)
        let start = Measure.milliseconds()
        let outcome = try optimize(input, to: out, args)
        if args.flag(.optimizeStats) {
            Output.err(Batch.line(.init(input: input, output: out), outcome, start: start, error: nil) + "\n")
        }
        return 0
    }

    static func optimize(_ input: String, to output: String, _ args: ParsedArguments) throws -> Batch.Outcome {
        // A link (FILE or OUT) stays a link: the file it names is replaced.
        let out = output == "-" ? output : LinkTarget.resolve(output)
        let inPlace = out == LinkTarget.resolve(input)
        // Read once: what is kept (or compared, or copied to OUT) is what was
        // read, even if the file changes meanwhile.
        let original = try FileBytes.read(path: input)
        var source = try ImageSource(data: original, name: input, options: args.decoding())
        let format = source.format.outputFormat ?? .apng
        // A GIF's images and delays as stored: the rewrite keeps them, and
        // is compared with them.
        let reading = format.rewritesAsStored ? args.decoding(.imagesAsStored) : args.decoding()
        if format.rewritesAsStored { source = try ImageSource(data: original, name: input, options: reading) }
        if let error = source.indexError { throw error }  // a damaged file is not rewritten
        // --max-memory: the file and its rewrite in memory, then either the
        // encoder or the rewrite's decoding beside the source's (to compare).
        let encoding = MemoryBudget.encoding(
            format: format, width: source.width, height: source.height, count: source.frameCount,
            inputBytes: original.count)
        let comparing = source.minimumMemory + 8 * source.width * source.height
        source = try MemoryBudget.fit(source, reserving: 2 * original.count + max(encoding, comparing))
        if !args.quiet { Output.warn(source, input) }
        var options = EncodingOptions()
        options.lossless = true
        options.quality = 100
        options.effort = args.int(.optimizeEffort) ?? 9
        options.oneThread = args.inBatch
        // In memory, not a second temporary file: nothing to leave behind,
        // and OUT is written (or not) in one step at the end.
        let shown = !args.inBatch && !args.quiet
        var progress = Progress(total: source.frameCount, label: "optimize: writing", enabled: shown)
        defer { progress.end() }  // also when the rewrite fails
        let report = try Transcoder(source, format: format, options: options).write(to: .memory) {
            if case .frames(let done, _) = $0 { progress.update(done) }
        }
        progress.end()
        let rewritten = report.data ?? []
        let (before, after) = (original.count, rewritten.count)
        let written = try ImageSource(data: rewritten, name: out, options: reading)
        var checking = Progress(total: source.frameCount, label: "optimize: checking", enabled: shown)
        defer { checking.end() }
        let difference = try firstDifference(source, written) { checking.update($0) }
        checking.end()
        let say = { (line: String) in if !args.quiet { Output.err(line) } }
        if let kept = difference.map({ "the rewrite would change \($0)" })
            ?? (after >= before ? "\(before) bytes, the rewrite is \(after)" : nil)
        {
            say("anim: \(input): kept: \(kept)\n")
            if !inPlace { try OutputPath.write(original, to: out) }
            return .kept
        }
        // Through a temporary file renamed over OUT, which keeps its mode,
        // owner and attributes (standard output for -).
        try OutputPath.write(rewritten, to: out)
        let saved = Double(before - after) * 100 / Double(max(before, 1))
        say(
            "anim: \(out == "-" ? input : out): \(before) -> \(after) bytes (\(String(format1: saved))% smaller)"
                + (out == "-" ? " to standard output" : "")
                + (report.adjustments.isEmpty ? "" : "; " + report.adjustments.map(\.description).joined(separator: "; ")) + "\n")
        return .written
    }

    /// What differs between the two animations as shown (frame at each of
    /// `a`'s frame starts, the total duration, the plays), or nil.
    static func firstDifference(
        _ a: ImageSource, _ b: ImageSource, checked: (Int) -> Void = { _ in }
    ) throws -> String? {
        guard a.plays == b.plays else { return "the play count" }
        let total = { (s: ImageSource) in s.frames.map(\.duration).reduce(.zero, +) }
        guard total(a) == total(b) else { return "the total duration" }
        guard a.metadata == b.metadata else { return "the metadata" }
        return try ShownComparison.compare(a, b, checked: checked).firstDifferent.map { "frame \($0)" }
    }
}
