import AnimKit

/// `anim extract FILE OUTDIR|-`: every frame as a PNG (or WebP, PAM, PPM,
/// raw RGBA), a file each, or streamed to standard output.
enum ExtractCommand: Command {
    static let info = CommandInfo(
        name: "extract", summary: "write every frame as a file (PNG, WebP, PAM, PPM, RGBA) or a stream",
        synopsis: ["FILE OUTDIR|- [options]"],
        description: """
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
            """,
        groups: [
            OptionGroup(
                title: "options",
                options: [.extractFormat, .color, .frames, .maxSize, .name, .durations, .extractStats])
        ],
        operands: 2...2)

    /// How the frames are written: checked before the file is read.
    struct Settings {
        let format: ExtractFormat
        let color: PNGFile.Color
        let naming: FrameNaming
    }

    static func settings(_ args: ParsedArguments) throws -> Settings {
        let format = args[.extractFormat].flatMap { ExtractFormat(rawValue: $0.lowercased()) } ?? .png
        let color = args[.color].flatMap { PNGFile.Color(rawValue: $0.lowercased()) }
        if color != nil && format != .png { throw UsageError(message: "--color is for --format png") }
        var naming = FrameNaming.standard(format)
        if let text = args[.name] {
            guard let n = FrameNaming.parse(text) else {
                throw UsageError(message: "--name needs a file name with one %d or %0Nd (N 1-9) and no /, not '\(text)'")
            }
            naming = n
        }
        return Settings(format: format, color: color ?? .rgba, naming: naming)
    }

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var options = args.decoding()
        if let n = args.int(.maxSize) { options.maxPixelSize = n }
        let settings = try settings(args)
        let dir = args.operands[1]
        if dir == "-" {
            if args[.name] != nil { throw UsageError(message: "--name names files: not for a stream (-)") }
            try OutputPath.refuseTerminal()
            signal(SIGPIPE, SIG_IGN)  // a reader that goes away is an EPIPE to end on, not a death
            widenPipe(1)
        }
        if args.operands[0] == "-" { return try extractStream(args, dir: dir, settings: settings, options: options) }
        let opened = try ImageSource(path: args.operands[0], options: options)
        if !args.quiet { Output.warn(opened, args.operands[0]) }
        let frames: [Int]
        do { frames = try frameList(args[.frames], count: opened.frameCount) } catch let e as UsageError {
            // A damaged file whose frames end before those asked for: the
            // ones it has, then its error (exit 1).
            guard opened.indexError != nil, let text = args[.frames], let selection = FrameSelection(text) else { throw e }
            frames = selection.frames(within: opened.frameCount)
        }
        // Raw RGBA and PAM into a stream: straight from the canvas, in order.
        let header = dir == "-" ? settings.format.rawHeader(width: opened.outputWidth, height: opened.outputHeight) : nil
        // --max-memory: the source's decoding, then as many frames in
        // flight as fit (at least one; none copied when written directly).
        let perFrame =
            header != nil ? 0 : settings.format.memoryPerFrame(width: opened.outputWidth, height: opened.outputHeight)
        let source = try MemoryBudget.fit(opened, reserving: perFrame)
        let room = options.limits.maxMemory - source.memoryFootprint
        let inFlight = perFrame == 0 ? WorkerPool.cores + 2 : min(WorkerPool.cores + 2, max(room / perFrame, 1))
        let start = Measure.milliseconds()
        let run = try makeRun(dir, settings, frames: frames.count, inFlight: inFlight)
        var progress = Progress(total: frames.count, label: "extract", enabled: !args.quiet)
        defer { progress.end() }
        var failure: Error?
        for (position, i) in frames.enumerated() where run.isRunning {
            do {
                if let header {
                    try source.withFrame(at: i) { run.writeDirect(header, $0, position: position) }
                } else {
                    run.submit(try source.frame(at: i), index: i, position: position)
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
        if let path = args[.durations] { try writeDurations(source, frames, to: path) }
        if args.flag(.extractStats) { report(run, start) }
        if let failure {
            run.removeFolderIfEmpty()
            throw failure
        }
        if let error = source.indexError, (frames.max() ?? 0) >= source.frameCount - 1 {
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

    static func makeRun(_ dir: String, _ settings: Settings, frames: Int?, inFlight: Int) throws -> ExtractRun {
        let target: ExtractRun.Target
        if dir == "-" {
            target = .stream(1)
        } else {
            let existed = OutputPath.status(dir) != nil
            try PNGFile.makeDirectory(dir)
            target = .folder(dir, settings.naming, created: !existed)
        }
        return ExtractRun(
            format: settings.format, color: settings.color, target: target, frames: frames, inFlight: inFlight)
    }

    static func report(_ run: ExtractRun, _ start: Double) {
        let (frames, bytes) = run.progress
        Measure.report([("frames", .int(frames)), ("bytes", .int(bytes))], since: start)
    }

    /// "index start_ms duration_ms", a line a frame (times as played: the
    /// file's delays, with the browsers' rule for short GIF delays).
    static func writeDurations(_ source: ImageSource, _ frames: [Int], to path: String) throws {
        let ms = source.frames.prefix((frames.max() ?? 0) + 1).map { Int($0.duration.milliseconds.rounded()) }
        let starts = ms.reduce(into: [0]) { $0.append($0.last! + $1) }
        let text = frames.map { "\($0) \(starts[$0]) \(ms[$0])\n" }.joined()
        try AtomicFile.write(Array(text.utf8), to: path, durable: false)
    }

    /// Standard input: frames are written as they complete.
    static func extractStream(
        _ args: ParsedArguments, dir: String, settings: Settings, options: DecodingOptions
    ) throws -> Int32 {
        let wanted = try args[.frames].map { try frameRange($0, count: Int.max) } ?? 0..<Int.max
        let start = Measure.milliseconds()
        let run = try makeRun(dir, settings, frames: nil, inFlight: WorkerPool.cores + 2)
        let incremental = IncrementalImageSource(name: "<stdin>", options: options)
        var next = wanted.lowerBound
        func writeReady() throws {
            guard let source = incremental.source else { return }
            while next < min(source.frameCount, wanted.upperBound) && run.isRunning {
                run.submit(try source.frame(at: next), index: next, position: next - wanted.lowerBound)
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
        if let path = args[.durations], let source = incremental.source {
            try writeDurations(source, Array(wanted.lowerBound..<min(next, source.frameCount)), to: path)
        }
        if args.flag(.extractStats) { report(run, start) }
        if let failure {
            run.removeFolderIfEmpty()
            throw failure
        }
        if let error = incremental.error {
            run.removeFolderIfEmpty()
            Output.err("anim: \(error.description)\n")
            return 1
        }
        return 0
    }

    /// `--frames LIST` (as `convert` takes it) over `count` frames.
    static func frameList(_ text: String?, count: Int) throws -> [Int] {
        guard let text else { return Array(0..<count) }
        let selection = try EditArguments.selection(text)
        do { return try selection.frames(of: count) } catch { throw UsageError(message: "--frames: \(error)") }
    }

    /// One range "A-B", "A-" or "A" (a stream, whose length is not known,
    /// and the player).
    static func frameRange(_ text: String?, count: Int) throws -> Range<Int> {
        guard let text else { return 0..<count }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let a = Int(parts[0]), a >= 0 else {
            throw UsageError(message: "--frames needs one range here, A-B, A- or A, not '\(text)'")
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
