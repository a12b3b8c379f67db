import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Plays an animation in the terminal: frames at the backend's resolution
/// through the frame cache, timed by a `FrameScheduler`, drawn by a
/// `FrameBackend` (text cells, kitty, sixel, iTerm2) that sends only what
/// changed, all of it through one `TerminalWriter`; keys, resize and
/// suspend handled.
public final class Player {
    var file: ImageSource
    /// The stream `file` comes from, while it is still arriving.
    let stream: IncrementalImageSource?
    let name: String
    var options: PlayerOptions
    let clock: PlaybackClock
    var stats = PlayerStatistics()
    var backend: FrameBackend
    let writer: TerminalWriter
    var frames: CachedFrameSource!
    /// The cell box the picture is fitted into (without the status line).
    var box = CellBox(columns: 80, rows: 24)
    var placement = Placement(row: 1, column: 1, columns: 1, rows: 1, pixels: PixelSize(width: 1, height: 1))
    var fitSize: PixelSize { placement.pixels }
    /// Figures of caches replaced after a resize.
    var retired = (decoded: 0, hits: 0, peak: 0)
    var scheduler: FrameScheduler
    var lastWrite: Int64 = 0
    var lastStatus = ""
    let start: Int64
    /// The file's frame the scheduler's frame 0 is (`PlayerOptions.frames`).
    let first: Int
    /// When the play ends at the latest (`PlayerOptions.maxDuration`), on `clock`.
    let stopTime: Int64?
    /// The status line's row (below the box).
    var statusRow = 25
    /// Whether the title is on screen since the last layout.
    var titleDrawn = false
    /// How a key asked the play to end (`n`, `p` in a list of files).
    var requested: PlayerStatistics.Outcome?

    /// `clock`: where time comes from (tests pass a `ManualClock`).
    public convenience init(
        source: ImageSource, name: String, options: PlayerOptions,
        clock: PlaybackClock = MonotonicClock()
    ) throws {
        try self.init(source: source, stream: nil, streamEnded: true, name: name, options: options, clock: clock)
    }

    /// Plays a stream as it arrives, from its first complete frame on:
    /// frames are taken in as they complete, and at the end of those that
    /// have arrived the player holds the last one until more come. Throws
    /// if not even one frame is complete yet.
    public convenience init(
        stream: IncrementalImageSource, name: String, options: PlayerOptions,
        clock: PlaybackClock = MonotonicClock()
    ) throws {
        let ended = stream.isFinished  // before the snapshot: it then holds every frame
        guard let source = stream.source, source.frameCount > 0 else {
            throw stream.error
                ?? AnimError.truncated(
                    file: stream.name, frame: 0, offset: stream.byteCount,
                    detail: "no complete frame yet")
        }
        try self.init(source: source, stream: stream, streamEnded: ended, name: name, options: options, clock: clock)
    }

    init(
        source: ImageSource, stream: IncrementalImageSource?, streamEnded: Bool, name: String,
        options: PlayerOptions, clock: PlaybackClock
    ) throws {
        self.clock = clock
        self.file = source
        self.stream = stream
        self.name = name
        self.options = options
        backend = Self.makeBackend(options)
        writer = TerminalWriter(fd: options.output)
        let plays: Plays =
            options.loops.map { $0 == 0 ? .forever : .count($0) } ?? (options.interactive ? source.plays : .count(1))
        start = clock.nanoseconds()
        // (A range past the last frame ends at it, as `anim extract --frames`.)
        let asked = options.frames ?? 0...(max(source.frameCount, 1) - 1)
        guard stream == nil || options.frames == nil, asked.lowerBound >= 0, asked.lowerBound < source.frameCount else {
            throw PlayerError.framesOutside(asked, count: source.frameCount)
        }
        let range = asked.lowerBound...min(asked.upperBound, source.frameCount - 1)
        self.options.frames = options.frames.map { _ in range }
        first = range.lowerBound
        let started = start
        stopTime = options.maxDuration.map { d in
            started + d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000
        }
        scheduler = FrameScheduler(
            durations: source.frames[range].map(\.duration), plays: plays,
            speed: options.speed, clock: clock)
        scheduler.isOpenEnded = !streamEnded
        try relayout()
    }

    /// What went wrong in the file after the last frame that could be
    /// played (it is truncated or corrupt there), once it has all been read.
    public var sourceError: AnimError? { stream?.error ?? file.indexError }

    /// Fits the animation into the cell box, keeping its shape for the
    /// terminal's cell size, and (re)opens the cached frames at that size.
    func relayout() throws {
        let size = Terminal.windowSize(fd: options.output)
        let columns = options.region?.columns ?? options.columns ?? size?.columns ?? 80
        // The last row holds the status line; without one, iTerm2 and sixel
        // images keep off it too (a terminal that moves the cursor below an
        // image on the last row would scroll, as chafa's --margin-bottom
        // avoids).
        let imageRow = options.interactive && !options.showStatus && (options.graphics == .iterm2 || options.graphics == .sixel)
        let reserved = (imageRow ? 1 : 0) + (options.showStatus && options.interactive ? 1 : 0)
        let terminalRows = options.rows ?? size?.rows ?? 24
        statusRow = max(terminalRows - reserved, 1) + 1
        let titleRows = options.title == nil ? 0 : 1
        let rows = max((options.region?.rows ?? max(terminalRows - reserved, 1)) - titleRows, 1)
        if let row = options.shellCursorRow, let windowRows = size?.rows, windowRows < row {
            // The terminal scrolled the main screen to keep that row in view.
            options.shellCursorRow = windowRows
            if options.interactive { TerminalState.setCursorAfter(row: windowRows) }
        }
        box = CellBox(columns: columns, rows: rows)
        let measured = size.flatMap {
            CellGeometry.from(pixelWidth: $0.pixelWidth, pixelHeight: $0.pixelHeight, columns: $0.columns, rows: $0.rows)
        }
        let cell = options.cell ?? measured ?? .assumed
        let origin =
            options.region.map { ($0.row, $0.column) } ?? options.inline.map { ($0.row, $0.column) } ?? (1, 1)
        placement = Placement.fit(
            source: PixelSize(width: file.width, height: file.height), box: box, cell: cell,
            resolution: backend.resolution, upscale: options.upscale,
            centered: (options.interactive && options.inline == nil) || options.region != nil,
            origin: (origin.0 + titleRows, origin.1))
        titleDrawn = false
        try openFrames()
        backend.invalidate()
        lastStatus = ""
    }

    /// Opens `file`'s frames at cell size through a new cache, keeping the
    /// old cache's figures for the statistics.
    func openFrames() throws {
        if let old = frames?.cache.statistics {
            retired.decoded += old.framesDecoded
            retired.hits += old.hits
            retired.peak = max(retired.peak, old.peakBytes)
        }
        var decoding = file.options
        decoding.decodeAhead = 0
        decoding.resizeTo = fitSize
        frames = CachedFrameSource(
            source: try file.reopened(options: decoding),
            limitBytes: options.cacheLimit ?? FrameCache.defaultLimit)
    }

    /// Whether the play has lasted `PlayerOptions.maxDuration`.
    var timeIsUp: Bool { stopTime.map { clock.nanoseconds() >= $0 } ?? false }

    /// The deadline to wait for: `deadline`, or the end of the play if sooner.
    func wake(at deadline: Int64) -> Int64 { min(deadline, stopTime ?? .max) }

    /// Shows the scheduler's frame `played` (the file's `first + played`);
    /// false when the output has gone away.
    func show(_ played: Int) throws -> Bool {
        let index = first + played
        var bytes = Escape.syncBegin
        if let stored = backend.renderStored(index: index, placement: placement) {
            bytes += stored
        } else {
            let direction: PlaybackDirection = scheduler.mode == .reverse ? .backward : .forward
            let image = try frames.frame(at: index, direction: direction, wraps: !scheduler.isOpenEnded)
            bytes += backend.render(image, index: index, placement: placement)
        }
        if let title = titleLine() {
            bytes += title
            backend.outputWasInterleaved()
        }
        if options.showStatus && options.interactive, let status = statusLine(index) {
            bytes += status
            backend.outputWasInterleaved()
        }
        if bytes.count > Escape.syncBegin.count, let row = parkingRow {
            bytes += Escape.moveTo(row: row, column: 1)
            backend.cursorWasMoved(row: row, column: 1)
        }
        bytes += Escape.syncEnd
        let now = clock.nanoseconds()
        if stats.framesShown == 0 {
            stats.firstFrameMs = Double(now - start) / 1e6
        } else {
            stats.intervals.append(Double(now - lastWrite) / 1e6)
        }
        lastWrite = now
        stats.framesShown += 1
        // Deadlines count from when the first frame is on screen, not from
        // before it was decoded: its full duration is shown.
        if stats.framesShown == 1 { scheduler.startCurrentFrameNow() }
        // A frame that changes nothing costs nothing.
        if bytes.count == Escape.syncBegin.count + Escape.syncEnd.count { bytes = [] }
        stats.bytesWritten += bytes.count
        if options.recordFrames { stats.shownFrames.append(.init(frame: index, time: now - start, byteEnd: stats.bytesWritten)) }
        return writer.write(bytes, synchronized: true)
    }

    /// Where the cursor waits between frames: the shell's row, moved up as
    /// the window shrinks below it (xterm scrolls the main screen's top
    /// lines into the scrollback then, so the row's content moves up too).
    var parkingRow: Int? {
        guard options.interactive else { return nil }
        return options.shellCursorRow
    }

    /// The status line's bytes when its text changed since it was last
    /// written (nil otherwise: no bytes, and the renderer's colours stay set).
    func statusLine(_ index: Int) -> [UInt8]? {
        let speed = scheduler.speed == scheduler.speed.rounded() ? String(Int(scheduler.speed)) : String(scheduler.speed)
        let text =
            " \(name)  frame \(index + 1)/\(file.frameCount)  speed \(speed)x  dropped \(stats.framesDropped)"
            + (scheduler.isPaused ? "  paused" : "")
        guard text != lastStatus else { return nil }
        lastStatus = text
        return Escape.moveTo(row: statusRow, column: 1) + Escape.resetAttributes + Escape.reverseVideo
            + Array(text.prefix(max(box.columns - 1, 1)).utf8) + Escape.resetAttributes + Escape.clearToEndOfLine
    }

    /// The title's bytes (`PlayerOptions.title`), on the row above the
    /// picture, centred on it and cut to the box's width, when it is not
    /// on screen yet.
    func titleLine() -> [UInt8]? {
        guard let title = options.title, !titleDrawn else { return nil }
        titleDrawn = true
        let width = max(options.region?.columns ?? box.columns, 1)
        let text = title.count > width ? String(title.prefix(max(width - 1, 0))) + "…" : title
        let left = options.region?.column ?? 1
        let column = max(placement.column + (placement.columns - text.count) / 2, left)
        return Escape.moveTo(row: max(placement.row - 1, 1), column: column) + Escape.resetAttributes + Escape.bold
            + Array(text.utf8) + Escape.resetAttributes
    }

    /// Plays until the end, `q`, or a closed output.
    public func run() throws -> PlayerStatistics {
        signal(SIGPIPE, SIG_IGN)  // a closed output is an EPIPE to handle, not a death
        if options.inline != nil {
            try runInline()
        } else if options.interactive {
            try runInteractive()
        } else if options.noWait {
            try runAsFastAsPossible()
        } else {
            try runTimed()
        }
        let s = frames.cache.statistics
        stats.decodedFrames = retired.decoded + s.framesDecoded
        stats.cacheHits = retired.hits + s.hits
        stats.peakCacheBytes = max(retired.peak, s.peakBytes)
        return stats
    }

    func runAsFastAsPossible() throws {
        let plays = options.loops ?? 1
        for _ in 0..<max(plays, 1) {
            var i = 0
            while !timeIsUp {
                try refreshStream()
                if i < (options.frames?.count ?? file.frameCount) {
                    if try !show(i) {
                        stats.outcome = .outputClosed
                        return
                    }
                    i += 1
                } else if scheduler.isOpenEnded {
                    stream?.waitForData(timeoutMs: 100)
                } else {
                    break
                }
            }
        }
    }

    func runTimed() throws {
        var last = -1
        while true {
            try refreshStream()
            let tick = scheduler.tick()
            stats.framesDropped += tick.skipped
            if tick.frame != last || last < 0 {
                if try !show(tick.frame) {
                    stats.outcome = .outputClosed
                    return
                }
                last = tick.frame
            }
            if tick.finished || timeIsUp { return }
            guard let deadline = tick.nextDeadline else {
                stream?.waitForData(timeoutMs: 100)  // waiting for frames of a stream
                continue
            }
            clock.sleep(until: wake(at: deadline))
            if timeIsUp { return }
        }
    }
}

/// A player that cannot be made as asked.
public enum PlayerError: Error, Equatable, CustomStringConvertible {
    /// `PlayerOptions.frames` starts past the file's last frame (or is
    /// given for a stream).
    case framesOutside(ClosedRange<Int>, count: Int)

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .framesOutside(let r, let count):
            return "frame \(r.lowerBound) is past the last frame (\(count - 1))"
        }
    }
}
