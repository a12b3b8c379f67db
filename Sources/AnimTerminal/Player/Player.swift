import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Plays animations in the terminal: owns the terminal for the whole play
/// (one `TerminalWriter`, keys, resize and suspend) and one or more
/// `Pane`s, each timed by its own `FrameScheduler` and drawn by its
/// `FrameBackend`. One loop serves every `Presentation` and the grid.
public final class Player {
    /// What was asked (a grid's sixel drawn as text cells).
    var options: PlayerOptions
    /// What the terminal was found to have; its cursor row follows the window.
    var terminal: TerminalCapabilities
    let clock: PlaybackClock
    let writer: TerminalWriter
    /// The panes, row by row: one, or a grid's.
    let panes: [Pane]
    /// Panes across and down (`anim play --grid`); nil: one over the window.
    let grid: (columns: Int, rows: Int)?
    let start: Int64
    /// When the play ends at the latest (`PlayTiming.maxDuration`), on `clock`.
    let stopTime: Int64?
    /// The shell's row through resizes (`followShellRow`): the lines a
    /// shrink pushed into the scrollback, and the window's rows last seen.
    var shellRowPushed = 0
    var windowRowsSeen: Int?

    /// `terminal`: what `TerminalProbe` found (nothing by default);
    /// `clock`: where time comes from (tests pass a `ManualClock`).
    public convenience init(
        source: ImageSource, name: String, options: PlayerOptions, terminal: TerminalCapabilities = .init(),
        clock: any Clock<Duration> = SuspendingClock()
    ) throws {
        try self.init(
            files: [(source, nil, true, name)], options: options, terminal: terminal, grid: nil, titles: false,
            clock: PlaybackClock(clock))
    }

    /// Plays a stream as it arrives: frames are taken in as they complete,
    /// and the last one is held until more come. Throws if not even one
    /// frame is complete yet.
    public convenience init(
        stream: IncrementalImageSource, name: String, options: PlayerOptions, terminal: TerminalCapabilities = .init(),
        clock: any Clock<Duration> = SuspendingClock()
    ) throws {
        let ended = stream.isFinished  // before the snapshot: it then holds every frame
        guard let source = stream.source, source.frameCount > 0 else {
            throw stream.error
                ?? AnimError(file: stream.name, frame: 0, offset: stream.byteCount, CommonProblem.noCompleteFrame)
        }
        try self.init(
            files: [(source, stream, ended, name)], options: options, terminal: terminal, grid: nil, titles: false,
            clock: PlaybackClock(clock))
    }

    /// Several animations at once (`anim play --grid CxR`): `sources` fill
    /// the grid row by row, each centred in its pane with its own timing,
    /// under its name with `titles`; keys apply to every pane; sixel is
    /// text cells. No file, a side under 1 or more files than panes throws
    /// `PlayerError.gridDoesNotFit`.
    public convenience init(
        sources: [(source: ImageSource, name: String)], options: PlayerOptions, terminal: TerminalCapabilities = .init(),
        grid: (columns: Int, rows: Int), titles: Bool, clock: any Clock<Duration> = SuspendingClock()
    ) throws {
        guard !sources.isEmpty, grid.columns >= 1, grid.rows >= 1, sources.count <= grid.columns * grid.rows else {
            throw PlayerError.gridDoesNotFit(files: sources.count, columns: grid.columns, rows: grid.rows)
        }
        try self.init(
            files: sources.map { ($0.source, nil, true, $0.name) }, options: options, terminal: terminal, grid: grid,
            titles: titles, clock: PlaybackClock(clock))
    }

    init(
        files: [Pane.File], options: PlayerOptions, terminal: TerminalCapabilities, grid: (columns: Int, rows: Int)?,
        titles: Bool,
        clock: PlaybackClock
    ) throws {
        self.clock = clock
        self.terminal = terminal
        self.grid = grid
        self.options = options
        // xterm keeps 16 sixel images and drops the highest for a new one:
        // panes would drop each other's, so a grid draws sixel as text cells.
        if grid != nil, options.look.graphics == .sixel { self.options.look.graphics = .text }
        writer = TerminalWriter(fd: options.output)
        let start = clock.nanoseconds()
        self.start = start
        stopTime = options.timing.maxDuration.map {
            start + $0.components.seconds * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000
        }
        let o = self.options
        panes = try files.enumerated().map { i, f in
            let pane = try Pane(f, options: o, backend: Self.makeBackend(o, terminal, pane: grid == nil ? nil : i), clock: clock)
            pane.layout.title = grid == nil ? o.title : titles ? f.name : nil
            return pane
        }
        try layOut()
    }

    /// What went wrong in the file after its last playable frame, once read.
    public var sourceError: AnimError? { panes[0].stream?.error ?? panes[0].file.indexError }

    /// Each pane's figures, row by row.
    public var statistics: [PlayerStatistics] { panes.map(\.stats) }

    var placement: Placement { panes[0].layout.placement }

    /// Whether the play has lasted `PlayTiming.maxDuration`.
    var timeIsUp: Bool { stopTime.map { clock.nanoseconds() >= $0 } ?? false }

    /// Plays until the end, `q` (`n`, `p` in a list), or a closed output;
    /// the first pane's figures (every pane's: `statistics`).
    public func run() throws -> PlayerStatistics {
        signal(SIGPIPE, SIG_IGN)  // a closed output is an EPIPE to handle, not a death
        switch options.presentation {
        case .fullScreen, .list: try runInteractive()
        case .inline(let place), .still(let place): try runInline(place)
        case .plain: try play(keys: nil)
        }
        for p in panes { p.collectCacheFigures() }
        return panes[0].stats
    }

    /// The one playback loop: each pane's frame drawn when due, then a wait
    /// for the next deadline (reading keys, if any), until every pane ended
    /// or a key ends the play.
    func play(keys: Int32?) throws {
        var last = [Int](repeating: -1, count: panes.count)
        var ended = [Bool](repeating: false, count: panes.count)
        // Late replies (after the probe, or kitty's errors) are not keys.
        var replies = TerminalReplyParser()
        if !terminal.answers.pendingInput.isEmpty, handle(replies.feed(terminal.answers.pendingInput), &last) { return }
        // `--no-wait` (one file, not a terminal): every frame in turn at once.
        let inOrder = options.timing.noWait && !options.interactive && grid == nil ? options.timing.loops ?? 1 : nil
        // `--frame N`: the first frame drawn ends the play.
        let once = if case .still = options.presentation { true } else { false }
        while true {
            if options.interactive { try takeSignals(keys, &last) }
            var deadline: Int64?
            for (i, pane) in panes.enumerated() where !ended[i] {
                try pane.refreshStream()
                let tick = pane.tick(inOrder: inOrder)
                pane.stats.framesDropped += tick.skipped
                if let frame = tick.frame, frame != last[i] || inOrder != nil {
                    // Another pane wrote since: colours and cursor unknown.
                    if grid != nil { pane.backend.outputWasInterleaved() }
                    if try !show(pane, frame), end(.outputClosed) { return }
                    last[i] = frame
                }
                if tick.finished || timeIsUp || once {
                    ended[i] = true
                } else if let d = tick.deadline {
                    deadline = min(deadline ?? .max, d, stopTime ?? .max)
                }
            }
            if !ended.contains(false) { return }
            if try wait(until: deadline, keys: keys, &replies, &last) { return }
        }
    }

    /// Waits until `deadline` (nil: none), taking keys meanwhile if any;
    /// true when a key ended the play.
    private func wait(
        until deadline: Int64?, keys: Int32?, _ replies: inout TerminalReplyParser, _ last: inout [Int]
    ) throws -> Bool {
        guard options.interactive else {
            if let deadline { clock.sleep(until: deadline) } else { panes[0].stream?.waitForData(timeoutMs: 100) }
            return false
        }
        var timeout = deadline.map { max(0, Int32(min(($0 - clock.nanoseconds() + 999_999) / 1_000_000, 1000))) } ?? 250
        if panes.contains(where: \.scheduler.isWaitingForFrames) { timeout = min(timeout, 10) }  // a stream's frames soon
        if replies.isHoldingSequence { timeout = min(timeout, 30) }  // an Esc alone is a key soon
        guard let keys else {
            clock.sleep(until: clock.nanoseconds() + Int64(timeout) * 1_000_000)
            return false
        }
        var pfd = pollfd(fd: keys, events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, timeout) > 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = read(keys, &buffer, buffer.count)
            return n > 0 && handle(replies.feed(Array(buffer[0..<n])), &last)
        }
        // A lone Esc held for what might follow: nothing did.
        return replies.isHoldingSequence && handle(([], replies.flush()), &last)
    }

    /// Sets every pane's outcome; true (the play ends).
    func end(_ outcome: PlayerStatistics.Outcome) -> Bool {
        for p in panes { p.stats.outcome = outcome }
        return true
    }
}

/// A player that cannot be made as asked.
public enum PlayerError: Error, Equatable, CustomStringConvertible {
    /// `PlayTiming.frames` starts past the last frame (or is given for a stream).
    case framesOutside(ClosedRange<Int>, count: Int)
    /// A grid given no file, a side under 1, or more files than panes.
    case gridDoesNotFit(files: Int, columns: Int, rows: Int)

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .framesOutside(let r, let count):
            return "frame \(r.lowerBound) is past the last frame (\(count - 1))"
        case .gridDoesNotFit(let files, let columns, let rows):
            return "\(files) file\(files == 1 ? "" : "s") for a grid of \(columns)x\(rows)"
        }
    }
}
