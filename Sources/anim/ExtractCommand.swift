import AnimKit

/// `anim extract FILE OUTDIR|-`: every frame as a PNG (or WebP, PAM, PPM,
/// raw RGBA), a file each, or streamed to standard output.
enum ExtractCommand: Command {
    static let info = CommandInfo(
        name: "extract", summary: "write every frame as a file (PNG, WebP, PAM, PPM, RGBA) or a stream",
        usage: """
            usage: anim extract FILE OUTDIR|- [--format png|webp|pam|ppm|rgba]
                                [--color rgba|auto] [--frames A-B] [--max-size N]
                                [--name PATTERN] [--durations FILE] [--stats]

            Writes each frame, composited as the animation shows it, full canvas:
            OUTDIR/frame-00000.png, frame-00001.png, ... (OUTDIR is created if
            needed), encoded on every core while the next frames decode. OUTDIR -
            streams the frames to standard output in order: PAM as a stream of
            images, RGBA as the frames' bytes one after the other, PNG and WebP as
            files one after the other:
              anim extract in.gif - --format rgba | ffmpeg -f rawvideo -pix_fmt rgba -s WxH -r R -i - out.mp4
              anim extract in.webp - --format pam | ffmpeg -f pam_pipe -i - out.mp4
            If the file is damaged, the frames decoded before the damage are
            written, then the error is reported (exit status 1). A reader that
            closes the stream early ends the command quietly (exit status 141).
            FILE may be - for standard input: each frame is written as soon as it
            has arrived.

            options:
              --format F     png (default), webp (lossless), pam (RGBA), ppm (RGB,
                             alpha dropped), rgba (raw bytes, no header)
              --color C      PNG: rgba (default, 8-bit RGBA) or auto (the smallest
                             lossless colour type: grey, palette, grey+alpha, RGB)
              --frames A-B   only frames A to B (0-based, inclusive); also A- or A
              --max-size N   downsample frames to fit N×N pixels (area average,
                             alpha-weighted; never enlarges)
              --name PATTERN file names, with one %d or %0Nd for the frame number
                             (default frame-%05d.EXT)
              --durations F  write the timing to F: a line a frame, "index
                             start_ms duration_ms" (also: anim info --json)
              --stats        at the end, one JSON line on stderr: frames, bytes,
                             seconds, peakRSSBytes
              -h, --help     show this help

            """,
        spec: OptionSpec(
            flags: ["--stats"], valued: ["--frames", "--max-size", "--format", "--color", "--name", "--durations"],
            positional: 2...2))

    struct Settings {
        var format = ExtractFormat.png
        var color = PNGFile.Color.rgba
        var naming: FrameNaming
        var durations: String?
        var stats = false
    }

    static func settings(_ args: ParsedArguments) throws -> Settings {
        var format = ExtractFormat.png
        if let text = args.values["--format"] {
            guard let f = ExtractFormat(rawValue: text.lowercased()) else {
                throw UsageError(message: "--format needs png, webp, pam, ppm or rgba, not '\(text)'")
            }
            format = f
        }
        var color = PNGFile.Color.rgba
        if let text = args.values["--color"] {
            guard let c = PNGFile.Color(rawValue: text.lowercased()) else {
                throw UsageError(message: "--color needs rgba or auto, not '\(text)'")
            }
            guard format == .png else { throw UsageError(message: "--color is for --format png") }
            color = c
        }
        var naming = FrameNaming.standard(format)
        if let text = args.values["--name"] {
            guard let n = FrameNaming.parse(text) else {
                throw UsageError(message: "--name needs a file name with one %d or %0Nd (N 1-9) and no /, not '\(text)'")
            }
            naming = n
        }
        return Settings(
            format: format, color: color, naming: naming, durations: args.values["--durations"], stats: args.flag("--stats"))
    }

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var options = args.decoding()
        if args.values["--max-size"] != nil { options.maxPixelSize = try args.int("--max-size", default: 0) }
        let settings = try settings(args)
        let dir = args.positional[1]
        if dir == "-" {
            if args.values["--name"] != nil { throw UsageError(message: "--name names files: not for a stream (-)") }
            if isatty(1) == 1 {
                throw UsageError(message: "standard output is a terminal: give a folder, or send the stream to a pipe or file")
            }
            signal(SIGPIPE, SIG_IGN)  // a reader that goes away is an EPIPE to end on, not a death
            widenPipe(1)
        }
        if args.positional[0] == "-" { return try extractStream(args, dir: dir, settings: settings, options: options) }
        let source = try ImageSource(path: args.positional[0], options: options)
        Output.warn(source, args.positional[0])
        let range = try frameRange(args.values["--frames"], count: source.frameCount)
        let start = Measure.milliseconds()
        let run = try makeRun(dir, settings, first: range.lowerBound, frames: range.count)
        var progress = Progress(total: range.count, label: "extract")
        defer { progress.end() }
        var failure: Error?
        // Raw RGBA and PAM into a stream: straight from the canvas, in order.
        let header = dir == "-" ? settings.format.rawHeader(width: source.outputWidth, height: source.outputHeight) : nil
        for i in range where run.isRunning {
            do {
                if let header {
                    try source.withFrame(at: i) { run.writeDirect(header, $0, index: i) }
                } else {
                    run.submit(try source.frame(at: i), index: i)
                }
            } catch {
                failure = error
                break
            }
            progress.update(run.progress.frames)
        }
        try run.finish()
        progress.update(run.progress.frames)
        if run.closed { return 141 }
        if let path = settings.durations { try writeDurations(source, range, to: path) }
        if settings.stats { report(run, start) }
        if let failure { throw failure }
        if let error = source.indexError, range.upperBound >= source.frameCount {
            Output.err("anim: \(error.description)\n")
            return 1
        }
        return 0
    }

    /// A pipe of 1 MiB (or the system's most, if less) instead of 64 KiB:
    /// a 1920×1080 frame crosses in 8 hand-overs, not 127. Nothing for a
    /// file or a terminal.
    static func widenPipe(_ fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFIFO else { return }
        // 1031: F_SETPIPE_SZ (Linux), which Glibc's module does not name.
        for size in [1 << 20, 1 << 19, 1 << 18] where fcntl(fd, 1031, Int32(size)) >= 0 { return }
    }

    static func makeRun(_ dir: String, _ settings: Settings, first: Int, frames: Int?) throws -> ExtractRun {
        let target: ExtractRun.Target
        if dir == "-" {
            target = .stream(1)
        } else {
            try PNGFile.makeDirectory(dir)
            target = .folder(dir, settings.naming)
        }
        return ExtractRun(format: settings.format, color: settings.color, target: target, first: first, frames: frames)
    }

    static func report(_ run: ExtractRun, _ start: Double) {
        let (frames, bytes) = run.progress
        Output.err(
            JSONValue.object([
                ("frames", .int(frames)), ("bytes", .int(bytes)),
                ("seconds", .number((Measure.milliseconds() - start).rounded() / 1000)),
                ("peakRSSBytes", .int(Measure.peakRSS())),
            ]).text + "\n")
    }

    /// "index start_ms duration_ms", a line a frame (times as played: the
    /// file's delays, with the browsers' rule for short GIF delays).
    static func writeDurations(_ source: ImageSource, _ range: Range<Int>, to path: String) throws {
        var text = ""
        var start = 0
        for i in 0..<range.upperBound {
            let ms = Int(source.frames[i].duration.milliseconds.rounded())
            if i >= range.lowerBound { text += "\(i) \(start) \(ms)\n" }
            start += ms
        }
        try AtomicFile.write(Array(text.utf8), to: path, durable: false)
    }

    /// Standard input: frames are written as they complete.
    static func extractStream(
        _ args: ParsedArguments, dir: String, settings: Settings, options: DecodingOptions
    ) throws -> Int32 {
        let wanted = try args.values["--frames"].map { try frameRange($0, count: Int.max) } ?? 0..<Int.max
        let start = Measure.milliseconds()
        let run = try makeRun(dir, settings, first: wanted.lowerBound, frames: nil)
        let incremental = IncrementalImageSource(name: "<stdin>", options: options)
        var next = wanted.lowerBound
        func writeReady() throws {
            guard let source = incremental.source else { return }
            while next < min(source.frameCount, wanted.upperBound) && run.isRunning {
                run.submit(try source.frame(at: next), index: next)
                next += 1
            }
        }
        var failure: Error?
        do {
            try StandardInput.feed(incremental) { try writeReady() }
            try writeReady()
        } catch { failure = error }
        try run.finish()
        if run.closed { return 141 }
        if let path = settings.durations, let source = incremental.source {
            try writeDurations(source, wanted.lowerBound..<min(next, source.frameCount), to: path)
        }
        if settings.stats { report(run, start) }
        if let failure { throw failure }
        if let error = incremental.error {
            Output.err("anim: \(error.description)\n")
            return 1
        }
        return 0
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
