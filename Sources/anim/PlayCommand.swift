import AnimKit
import AnimTerminal

/// `anim play [FILE|-]`: the terminal player.
enum PlayCommand: Command {
    static let info = CommandInfo(
        name: "play", summary: "play an animation in the terminal", synopsis: ["[FILE... | -] [options]"],
        description: """
            Plays a GIF, APNG or WebP in the terminal: at full resolution through the
            kitty, sixel or iTerm2 graphics protocols where the terminal has one, else
            in text cells. With no FILE, plays the built-in demo; - reads standard
            input, playing from the first complete frame while the rest arrives.
            Several files play one after another (a file that loops forever plays
            once there, unless --loops says), or side by side with --grid.

            keys: space pause/resume, ← → step one frame (pauses), + − double/halve the
            speed, r reverse, 0 restart, s status line, n / p next / previous file
            (with --grid: page), q / Esc / Ctrl-C quit.
            Ctrl-Z suspends (the terminal is restored) and fg resumes.
            """,
        groups: [Option.playing], operands: 0...Int.max,
        epilogue: """
            When standard output is not a terminal, frames are written without the
            alternate screen or raw mode. Exit status: 0 played or quit, 1 the file
            could not be read (or is damaged after the frames that played: the
            problem is printed once the terminal is restored), 2 usage error, 129,
            130, 143 ended by SIGHUP, SIGINT, SIGTERM, 141 the output was closed.
            """)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var options = try playerOptions(args)
        options.presentation = Terminal.isTerminal(1) ? .fullScreen : .plain
        var terminal = TerminalCapabilities()
        let place = try args[.place].map { try parsePlace($0) }
        let previewing = args.flag(.inline) || place != nil || args[.frame] != nil
        if args.flag(.clear) && !previewing {
            throw UsageError(message: "--clear is for previews: give --inline, --place or --frame too")
        }
        if let n = args.int(.frame) {
            if args[.playFrames] != nil { throw UsageError(message: "give --frame or --frames, not both") }
            options.timing.frames = n...n
        }
        // Also with --protocol and --colors given: tmux's passthrough, the
        // sixel limits and the shell's cursor row come from the probe.
        if args.flag(.probe) || options.presentation == .fullScreen {
            terminal = probe()
            if args.flag(.probe) {
                Output.out(terminal.describe() + "\n")
                return 0
            }
            apply(terminal, to: &options, args)
        } else {
            terminal = TerminalProbe.withoutProbe(TerminalProbe.processEnvironment())
        }
        let paths = args.operands
        if paths.count > 1 || args[.grid] != nil {
            if paths.isEmpty { throw UsageError(message: "--grid needs files to play") }
            if paths.contains("-") { throw UsageError(message: "standard input (-) plays alone, not in a list of files") }
            if previewing { throw UsageError(message: "--inline, --place and --frame preview one file, not \(paths.count)") }
            let grid = try args[.grid].map { try PlayList.parseGrid($0, files: paths.count) }
            let layout = PlayList.Layout(
                grid: grid, titles: args.flag(.title), stats: args.flag(.playStats), decoding: args.decoding())
            return try PlayList.run(paths, options: options, terminal: terminal, layout: layout)
        }
        if args.flag(.title) { options.title = paths.first.map(OutputPath.baseName) ?? DemoAnimation.name }
        if previewing {
            preview(&options, &terminal, place: place, clear: args.flag(.clear), still: args[.frame] != nil)
        }
        if args.operands.first == "-" && options.timing.frames != nil {
            throw UsageError(message: "--frames needs a file, not standard input")
        }
        let player: Player
        var reader: StandardInput.Reader?
        do {
            (player, reader) = try makePlayer(args, options, terminal)
        } catch let e as PlayerError {
            throw UsageError(message: "--frames: \(e)")
        }
        let stats = try player.run()
        if args.flag(.playStats) { Output.err(json(stats).text + "\n") }
        if stats.outcome == .outputClosed { return 141 }
        // Frames after the damage could not be played: say so, now that the screen is back.
        if let error = reader?.readError ?? player.sourceError {
            Output.err("anim: \(error.description)\n")
            return 1
        }
        return 0
    }

    /// The player for the file, the demo or standard input (and its reader).
    static func makePlayer(
        _ args: ParsedArguments, _ options: PlayerOptions, _ terminal: TerminalCapabilities
    ) throws -> (Player, StandardInput.Reader?) {
        let source: ImageSource
        switch args.operands.first {
        case nil: source = try ImageSource(data: Base64.decode(DemoAnimation.base64), name: DemoAnimation.name)
        case "-"?:
            // Streamed: play from the first complete frame while the rest arrives.
            let r = StandardInput.Reader(options: args.decoding())
            try r.waitForFirstFrame()
            return (try Player(stream: r.stream, name: "<stdin>", options: options, terminal: terminal), r)
        case let path?:
            // One frame (a previewer's call on every cursor move): only as
            // much of the file as that frame needs is indexed.
            source =
                args[.frame] != nil
                ? try ImageSource.opening(
                    path: path, throughFrame: options.timing.frames?.lowerBound ?? 0, options: args.decoding())
                : try ImageSource(path: path, options: args.decoding())
        }
        let name = args.operands.first.map(OutputPath.baseName) ?? DemoAnimation.name
        return (try Player(source: source, name: name, options: options, terminal: terminal), nil)
    }

    /// The preview's box and what it leaves (`--inline`, `--place`,
    /// `--frame`): on a terminal at the cursor's row (or the box asked);
    /// into a pipe as lines, sized as fzf says; `still`: one frame.
    static func preview(
        _ o: inout PlayerOptions, _ caps: inout TerminalCapabilities, place: (columns: Int, rows: Int, x: Int, y: Int)?,
        clear: Bool, still: Bool
    ) {
        let terminal = o.presentation == .fullScreen
        caps.answers.pendingInput = []
        func box(_ p: InlinePlacement) -> Presentation { still ? .still(p) : .inline(p) }
        if let place {
            o.columns = place.columns
            o.rows = place.rows
            o.presentation = box(.init(row: place.y + 1, column: place.x + 1, clear: clear, keepCursor: true, lines: !terminal))
            return
        }
        if !terminal {
            func env(_ name: String) -> Int? { getenv(name).flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil } }
            o.columns = o.columns ?? env("FZF_PREVIEW_COLUMNS") ?? env("COLUMNS")
            o.rows = o.rows ?? env("FZF_PREVIEW_LINES") ?? env("LINES")
            o.presentation = box(InlinePlacement(row: 1, column: 1, clear: false, lines: true))
            return
        }
        // Below the shell's output: the box is the terminal's width and all
        // its rows but one (the picture scrolls the screen up when the
        // cursor is too low for it).
        let size = Terminal.size(fd: o.output)
        if o.rows == nil, let size { o.rows = max(size.rows - 1, 1) }
        // The probe's DECXCPR, else a plain cursor report (tmux has only that).
        let row = caps.answers.cursorRow ?? CursorRow.query(tty: Terminal.isTerminal(0) ? 0 : o.output)
        o.presentation = box(InlinePlacement(row: row ?? 1, column: 1, clear: clear))
    }

    /// "COLSxROWS@X,Y" (or "@XxY", as kitty's `--place`).
    static func parsePlace(_ text: String) throws -> (columns: Int, rows: Int, x: Int, y: Int) {
        let bad = UsageError(message: "--place needs COLSxROWS@X,Y (cells; X and Y from 0), not '\(text)'")
        let halves = text.lowercased().split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2 else { throw bad }
        let size = halves[0].split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        let at = halves[1].split(whereSeparator: { $0 == "," || $0 == "x" }).map { Int($0) }
        guard size.count == 2, at.count == 2, let c = size[0], let r = size[1], let x = at[0], let y = at[1],
            c >= 1, r >= 1, c <= 10_000, r <= 10_000, x >= 0, y >= 0, x <= 10_000, y <= 10_000
        else { throw bad }
        return (c, r, x, y)
    }

    /// One round of detection on the controlling terminal (never longer
    /// than about 100 ms when the terminal says nothing).
    /// With `--probe` and output redirected (`anim play --probe > file`),
    /// the queries go to the controlling terminal itself.
    static func probe() -> TerminalCapabilities {
        let tty = Terminal.isTerminal(0) && Terminal.isTerminal(1) ? -1 : open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        defer { if tty >= 0 { close(tty) } }
        let input: Int32 = Terminal.isTerminal(0) ? 0 : tty
        let output: Int32 = Terminal.isTerminal(1) ? 1 : tty
        return TerminalProbe.detect(environment: TerminalProbe.processEnvironment(), input: input, output: output)
    }

    /// What detection decides, where the command line left it open.
    static func apply(_ caps: TerminalCapabilities, to o: inout PlayerOptions, _ args: ParsedArguments) {
        if (args[.graphicsProtocol]?.lowercased() ?? "auto") == "auto" { o.look.graphics = caps.best }
        if args[.colorMode] == nil { o.look.colorMode = caps.trueColor ? .trueColor : .palette256 }
        if (args[.symbols]?.lowercased() ?? "auto") == "auto" { o.look.symbols = TextSymbols(drawn: caps.symbols) }
        if o.cell == nil, caps.cell.isMeasured { o.cell = caps.cell }
    }

    static func playerOptions(_ args: ParsedArguments) throws -> PlayerOptions {
        var o = PlayerOptions()
        o.columns = args.int(.width)
        o.rows = args.int(.height)
        switch args[.colorMode]?.lowercased() {
        case nil:
            var env: [String: String] = [:]
            if let c = getenv("COLORTERM") { env["COLORTERM"] = String(cString: c) }
            o.look.colorMode = ColorMode.detect(environment: env)
        case "24bit"?, "truecolor"?: o.look.colorMode = .trueColor
        case "256"?: o.look.colorMode = .palette256
        default: break  // declared choices only
        }
        if let b = args[.background] {
            guard let bg = Background(argument: b) else {
                throw UsageError(message: "--background needs none, checker or #rrggbb, not '\(b)'")
            }
            o.look.background = bg
        }
        if let n = args.int(.playLoops) { o.timing.loops = n }
        if let v = args.number(.playSpeed) { o.timing.speed = v }
        if let text = args[.playFrames] {
            let r = try ExtractCommand.frameRange(text, count: Int.max)
            o.timing.frames = r.lowerBound...(r.upperBound - 1)
        }
        if let text = args[.duration] { o.timing.maxDuration = try parseDuration(text, option: "--duration") }
        o.look.colorTolerance = args.int(.tolerance) ?? o.look.colorTolerance
        if let c = args[.cacheLimit] { o.cacheLimit = try ByteSize.parse(c, option: "--cache-limit") }
        switch args[.graphicsProtocol]?.lowercased() {
        case nil, "auto"?: o.look.graphics = .text
        case let v?: o.look.graphics = GraphicsProtocol(rawValue: v) ?? .text  // declared choices only
        }
        if let c = args[.cell] {
            let parts = c.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (1...1000).contains(parts[0]), (1...1000).contains(parts[1]) else {
                throw UsageError(message: "--cell needs WxH in pixels, e.g. 8x19, not '\(c)'")
            }
            o.cell = CellGeometry(width: parts[0], height: parts[1])
        }
        if let v = args[.symbols], let sym = TextSymbols(rawValue: v.lowercased()) { o.look.symbols = sym }
        if let v = args[.ditherCells], let d = PaletteDither(rawValue: v.lowercased()) { o.look.dither = d }
        o.look.upscale = args.flag(.upscale)
        o.timing.noWait = args.flag(.noWait)
        o.showStatus = args.flag(.status)
        return o
    }

    /// "5" or "5s" (seconds), "500ms", "1.5m": above zero.
    static func parseDuration(_ text: String, option: String) throws -> Duration {
        let t = text.lowercased()
        let (number, scale): (Substring, Double) =
            t.hasSuffix("ms")
            ? (t.dropLast(2), 1e-3) : t.hasSuffix("s") ? (t.dropLast(), 1) : t.hasSuffix("m") ? (t.dropLast(), 60) : (t[...], 1)
        guard let v = Double(number), v > 0, v * scale < 1e7 else {
            throw UsageError(message: "\(option) needs a time above zero such as 5, 2.5s, 500ms or 1m, not '\(text)'")
        }
        return .nanoseconds(Int64((v * scale * 1e9).rounded()))
    }

    static func json(_ s: PlayerStatistics) -> JSONValue {
        func r(_ v: Double) -> JSONValue { .number((v * 1000).rounded() / 1000) }
        return .object([
            ("framesShown", .int(s.framesShown)), ("framesDropped", .int(s.framesDropped)),
            ("bytesWritten", .int(s.bytesWritten)), ("firstFrameMs", r(s.firstFrameMs)),
            ("meanIntervalMs", r(s.meanIntervalMs)), ("stdevIntervalMs", r(s.stdevIntervalMs)),
            ("decodedFrames", .int(s.decodedFrames)), ("cacheHits", .int(s.cacheHits)),
            ("peakCacheBytes", .int(s.peakCacheBytes)),
        ])
    }
}

/// `anim play FILE…`: several files one after another (`n`/`p` for the next
/// and the previous), or a page of them at once (`--grid CxR`, `n`/`p` for
/// the next and previous page). The terminal is entered once for the
/// whole list; a file that cannot be read is skipped, and said once the
/// terminal is back (exit status 1).
enum PlayList {
    struct Layout {
        /// Panes across and down; nil: one file at a time.
        var grid: (columns: Int, rows: Int)?
        /// Each file's name above its picture.
        var titles: Bool
        /// A JSON line of figures per file on stderr (with the file's name
        /// and how its play ended).
        var stats: Bool
        /// How the files are read (`ParsedArguments.decoding`).
        var decoding: DecodingOptions
    }

    static func run(
        _ paths: [String], options: PlayerOptions, terminal: TerminalCapabilities, layout: Layout
    ) throws -> Int32 {
        var o = options
        var terminal = terminal
        var keys: (fd: Int32?, opened: Bool) = (nil, false)
        if o.presentation == .fullScreen {
            keys = Player.keyboard(input: o.input)
            Player.enterTerminal(keyboard: keys.fd, output: o.output, &terminal)
            o.presentation = .list
            o.input = keys.fd
        }
        var errors: [String] = []
        let status: Int32
        do {
            defer {
                if o.presentation == .list { Terminal.leave() }
                if keys.opened, let fd = keys.fd { close(fd) }
            }
            status = try play(paths, o, terminal, layout, &errors)
        }
        // Said once the screen is back.
        for e in errors { Output.err("anim: \(e)\n") }
        return status != 0 ? status : errors.isEmpty ? 0 : 1
    }

    private static func play(
        _ paths: [String], _ o: PlayerOptions, _ terminal: TerminalCapabilities, _ layout: Layout,
        _ errors: inout [String]
    ) throws -> Int32 {
        var terminal = terminal
        let size = layout.grid.map { $0.columns * $0.rows } ?? 1
        let pages = (paths.count + size - 1) / size
        var page = 0
        var step = 1
        var failed = Set<String>()
        while page >= 0 && page < pages {
            var sources: [(source: ImageSource, name: String)] = []
            for path in paths[(page * size)..<min((page + 1) * size, paths.count)] where !failed.contains(path) {
                do {
                    let source = try ImageSource(path: path, options: layout.decoding)
                    // Its share of --max-memory (a grid's panes decode side by
                    // side): refused here, so the list goes on without it.
                    let share = layout.decoding.limits.maxMemory / size
                    if source.minimumMemory > share {
                        throw AnimError(file: path, LimitExceeded(.memory, value: source.minimumMemory, maximum: share))
                    }
                    sources.append((source, OutputPath.baseName(path)))
                } catch {
                    failed.insert(path)
                    errors.append(Limits.describe(error))
                }
            }
            if sources.isEmpty {  // nothing to show here: on in the same direction
                page += step
                continue
            }
            let outcome: PlayerStatistics.Outcome
            if let grid = layout.grid {
                let player = try Player(
                    sources: sources, options: o, terminal: terminal, grid: grid, titles: layout.titles)
                outcome = try player.run().outcome
                if layout.stats {
                    for (s, figures) in zip(sources, player.statistics) { report(s.name, figures) }
                }
            } else {
                var one = o
                one.title = layout.titles ? sources[0].name : nil
                // In a list a file that loops forever plays once, so the
                // list goes on (`--loops` still sets every file's count).
                if o.presentation == .list, o.timing.loops == nil, sources[0].source.plays == .forever { one.timing.loops = 1 }
                let player = try Player(source: sources[0].source, name: sources[0].name, options: one, terminal: terminal)
                let figures = try player.run()
                outcome = figures.outcome
                if layout.stats { report(sources[0].name, figures) }
                if let e = player.sourceError { errors.append(Limits.describe(e)) }
            }
            terminal.answers.pendingInput = []  // keys typed during the probe go to the first play only
            switch outcome {
            case .quit: return 0
            case .outputClosed: return 141
            case .previous:
                step = -1
                page = max(page - 1, 0)
            case .next, .finished:
                step = 1
                page += 1
            }
        }
        return 0
    }

    private static func report(_ name: String, _ s: PlayerStatistics) {
        guard case .object(var fields) = PlayCommand.json(s) else { return }
        fields.insert(("file", .string(name)), at: 0)
        fields.append(("outcome", .string("\(s.outcome)")))
        Output.err(JSONValue.object(fields).text + "\n")
    }

    /// "CxR" (panes across and down, each 1-16), or "C" (as many rows as
    /// `files` need).
    static func parseGrid(_ text: String, files: Int) throws -> (columns: Int, rows: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.map((1...16).contains) == true }), let c = parts[0] else {
            throw UsageError(message: "--grid needs COLSxROWS (1-16 each) or COLS, not '\(text)'")
        }
        return (c, parts.count == 2 ? parts[1]! : min(max((files + c - 1) / c, 1), 16))
    }
}
