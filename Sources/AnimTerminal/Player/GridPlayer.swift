import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Several animations at once (`anim play --grid CxR`): each in a pane of
/// the grid, fitted and centred in it, with its own frame cache, scheduler
/// and backend, so each keeps its own timing; one loop draws whichever
/// pane has a frame due and sleeps until the next one is. Keys apply to
/// every pane (pause, step, speed, reverse, restart); `n`/`p` end the grid
/// with `.next`/`.previous` (the caller shows the next page of files), `q`
/// quits. Each pane plays its file's loop count, or `PlayerOptions.loops`.
/// kitty panes are images of their own; sixel is drawn as text cells.
public final class GridPlayer {
    /// The panes, row by row.
    let panes: [Player]
    let columns: Int
    let rows: Int
    var options: PlayerOptions
    let clock: PlaybackClock

    /// `sources` fill the grid row by row (at most `columns`×`rows`);
    /// `options` as for one player (its `title` unused: `titles` puts each
    /// file's name above its pane).
    public init(
        sources: [(source: ImageSource, name: String)], options: PlayerOptions, columns: Int, rows: Int,
        titles: Bool, clock: PlaybackClock = MonotonicClock()
    ) throws {
        precondition(!sources.isEmpty && columns >= 1 && rows >= 1 && sources.count <= columns * rows)
        self.columns = columns
        self.rows = rows
        self.options = options
        self.clock = clock
        let regions = Self.regions(count: sources.count, columns: columns, rows: rows, screen: Self.screen(options))
        // xterm keeps at most 16 sixel images for the whole screen and drops
        // the highest one for a new one: panes would drop each other's
        // pictures (seen under Xvfb), so a grid draws sixel as text cells.
        if self.options.graphics == .sixel { self.options.graphics = .text }
        let options = self.options
        var made: [Player] = []
        for (i, s) in sources.enumerated() {
            var o = options
            o.interactive = false  // the grid owns keys, screen and status
            o.showStatus = false
            o.inline = nil
            o.region = regions[i]
            o.title = titles ? s.name : nil
            // The file's count on a terminal, one play into a pipe (as one player).
            o.loops = options.loops ?? (options.interactive ? s.source.plays.number : 1)
            // Per pane its own kitty image (the ids of one process differ
            // in the low byte).
            o.kittyImageID = 0x2B00_0000 | (UInt32(truncatingIfNeeded: getpid()) & 0xFFFF) << 8 | UInt32(i & 0xFF)
            made.append(try Player(source: s.source, name: s.name, options: o, clock: clock))
        }
        panes = made
    }

    /// The screen's size in cells: the options', else the terminal's.
    static func screen(_ o: PlayerOptions) -> (columns: Int, rows: Int) {
        let size = Terminal.windowSize(fd: o.output)
        return (o.columns ?? size?.columns ?? 80, o.rows ?? size?.rows ?? 24)
    }

    /// The panes of a `columns`×`rows` grid over the screen, row by row: the
    /// width shared out with one blank column between panes, the height
    /// evenly; the first `count`.
    static func regions(count: Int, columns: Int, rows: Int, screen: (columns: Int, rows: Int)) -> [CellRegion] {
        let width = max((screen.columns - (columns - 1)) / columns, 1)
        let height = max(screen.rows / rows, 1)
        return (0..<count).map { i in
            CellRegion(row: 1 + (i / columns) * height, column: 1 + (i % columns) * (width + 1), columns: width, rows: height)
        }
    }

    /// Each pane's figures, row by row.
    public var statistics: [PlayerStatistics] { panes.map(\.stats) }

    /// Plays until every pane has ended, `q`, `n`/`p`, or a closed output.
    public func run() throws -> PlayerStatistics.Outcome {
        signal(SIGPIPE, SIG_IGN)
        guard options.interactive else { return try play(keys: nil) }
        let (keys, opened) = Player.keyboard(input: options.input)
        defer { if opened, let keys { close(keys) } }
        TerminalState.setExtra(panes.flatMap { $0.backend.finish() })
        if options.sharedTerminal {
            panes[0].clearScreen()
        } else {
            Terminal.enter(keyboard: keys, output: options.output)
        }
        defer {
            if options.sharedTerminal {
                panes[0].writer.write(
                    panes.flatMap { $0.backend.finish() } + Escape.resetAttributes + Escape.clearScreen)
                TerminalState.setExtra([])
            } else {
                Terminal.leave()
            }
        }
        PlayerSignals.install()
        return try play(keys: keys)
    }

    private func play(keys: Int32?) throws -> PlayerStatistics.Outcome {
        var last = [Int](repeating: -1, count: panes.count)
        var ended = [Bool](repeating: false, count: panes.count)
        var replies = TerminalReplyParser()
        if !options.pendingInput.isEmpty, let end = handle(replies.feed(options.pendingInput), &last) { return end }
        while true {
            if options.interactive { try takeSignals(keys, &last) }
            var deadline = Int64.max
            for (i, pane) in panes.enumerated() where !ended[i] {
                let tick = pane.scheduler.tick()
                pane.stats.framesDropped += tick.skipped
                if tick.frame != last[i] {
                    // Another pane wrote since: colours and cursor unknown.
                    pane.backend.outputWasInterleaved()
                    if try !pane.show(tick.frame) {
                        for p in panes { p.stats.outcome = .outputClosed }
                        return .outputClosed
                    }
                    last[i] = tick.frame
                }
                if tick.finished || pane.timeIsUp {
                    ended[i] = true
                } else if let d = tick.nextDeadline {
                    deadline = min(deadline, pane.wake(at: d))
                }
            }
            if !ended.contains(false) { return .finished }
            let wait = deadline == .max ? 250 : max(0, min((deadline - clock.nanoseconds() + 999_999) / 1_000_000, 1000))
            guard let keys else {
                clock.sleep(until: clock.nanoseconds() + wait * 1_000_000)
                continue
            }
            var pfd = pollfd(fd: keys, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, Int32(replies.isHoldingSequence ? min(wait, 30) : wait)) > 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                let n = read(keys, &buffer, buffer.count)
                if n > 0, let end = handle(replies.feed(Array(buffer[0..<n])), &last) { return end }
            } else if replies.isHoldingSequence, let end = handle(([], replies.flush()), &last) {
                return end
            }
        }
    }

    /// Ctrl-Z's resume and a resize: the terminal taken back, the panes
    /// laid out again and drawn whole.
    private func takeSignals(_ keys: Int32?, _ last: inout [Int]) throws {
        if PlayerSignals.resumed == 1 {
            PlayerSignals.resumed = 0
            Terminal.enter(keyboard: keys, output: options.output, resuming: true)
            PlayerSignals.install()
            for p in panes { p.backend.invalidate() }
            for i in last.indices { last[i] = -1 }
            for p in panes { p.titleDrawn = false }
        }
        if PlayerSignals.resized == 1 {
            PlayerSignals.resized = 0
            panes[0].clearScreen()
            let regions = Self.regions(count: panes.count, columns: columns, rows: rows, screen: Self.screen(options))
            for (i, p) in panes.enumerated() {
                p.options.region = regions[i]
                try p.relayout()
            }
            for i in last.indices { last[i] = -1 }
        }
    }

    /// Replies go to their pane's backend, keys to every pane; the outcome
    /// when a key ends the grid.
    private func handle(
        _ input: (replies: [TerminalReply], other: [UInt8]), _ last: inout [Int]
    ) -> PlayerStatistics.Outcome? {
        for reply in input.replies {
            for (i, p) in panes.enumerated() where p.backend.handleReply(reply) { last[i] = -1 }
        }
        for key in PlayerKey.parse(input.other) {
            let end: PlayerStatistics.Outcome? =
                switch key {
                case .quit: .quit
                case .next: .next
                case .previous: .previous
                case .toggleStatus: nil  // a grid has no status line
                default: nil
                }
            if let end {
                for p in panes { p.stats.outcome = end }
                return end
            }
            if key == .toggleStatus { continue }
            for (i, p) in panes.enumerated() { _ = p.handle([key], &last[i]) }
        }
        return nil
    }
}
