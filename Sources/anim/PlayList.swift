import AnimKit
import AnimTerminal

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
