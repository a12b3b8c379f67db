import AnimKit
#if canImport(Glibc)
import Glibc
#endif

/// Plays an animation in the terminal: frames at cell resolution through
/// the frame cache, timed by a `FrameScheduler`, drawn by a diffing
/// `FrameRenderer`, with keys, resize and suspend handled.
public final class Player {
    let file: ImageSource
    let name: String
    var options: PlayerOptions
    let clock: PlaybackClock
    var stats = PlayerStatistics()
    var renderer: FrameRenderer
    var frames: CachedFrameSource!
    var layout = Layout(columns: 80, rows: 24, origin: (1, 1))
    var scheduler: FrameScheduler
    var lastWrite: Int64 = 0
    var lastStatus = ""
    let start: Int64

    struct Layout {
        var columns: Int, rows: Int
        var origin: (row: Int, column: Int)
    }

    /// `clock`: where time comes from (tests pass a `ManualClock`).
    public init(source: ImageSource, name: String, options: PlayerOptions,
                clock: PlaybackClock = MonotonicClock()) throws {
        self.clock = clock
        self.file = source
        self.name = name
        self.options = options
        renderer = FrameRenderer(mode: options.colorMode)
        let plays: Plays = options.loops.map { $0 == 0 ? .forever : .count($0) } ?? (options.interactive ? source.plays : .count(1))
        start = clock.nanoseconds()
        scheduler = FrameScheduler(durations: source.frames.map(\.duration), plays: plays,
                                   speed: options.speed, clock: clock)
        try relayout()
    }

    /// Fits the animation into the cell box and (re)opens the cached frames at that size.
    func relayout() throws {
        let size = Terminal.size(fd: options.output)
        let columns = options.columns ?? size?.columns ?? 80
        let rows = max((options.rows ?? size?.rows ?? 24) - (options.showStatus && options.interactive ? 1 : 0), 1)
        let fit = Downsampler.fit(width: file.width, height: file.height, maxWidth: max(columns, 1), maxHeight: rows * 2)
        let gridRows = (fit.height + 1) / 2
        let origin = options.interactive ? (1 + (rows - gridRows) / 2, 1 + (columns - fit.width) / 2) : (1, 1)
        layout = Layout(columns: columns, rows: rows, origin: origin)
        var decoding = file.options
        decoding.decodeAhead = 0
        decoding.fitIn = PixelSize(width: fit.width, height: fit.height)
        frames = CachedFrameSource(source: try file.reopened(options: decoding),
                                   limitBytes: options.cacheLimit ?? FrameCache.defaultLimit)
        renderer.invalidate()
        lastStatus = ""
    }

    /// Shows frame `index`; false when the output has gone away.
    func show(_ index: Int) throws -> Bool {
        let direction: PlaybackDirection = scheduler.mode == .reverse ? .backward : .forward
        let image = try frames.frame(at: index, direction: direction)
        let grid = CellGrid(image: image, background: options.background, mode: options.colorMode)
        var bytes = renderer.render(grid, row: layout.origin.row, column: layout.origin.column)
        if options.showStatus && options.interactive { bytes += statusLine(index) ?? [] }
        let now = clock.nanoseconds()
        if stats.framesShown == 0 { stats.firstFrameMs = Double(now - start) / 1e6 }
        else { stats.intervals.append(Double(now - lastWrite) / 1e6) }
        lastWrite = now
        stats.framesShown += 1
        stats.bytesWritten += bytes.count
        if options.recordFrames { stats.shownFrames.append(.init(frame: index, time: now - start, byteEnd: stats.bytesWritten)) }
        return Terminal.writeAll(options.output, &bytes)
    }

    /// The status line's bytes when its text changed since it was last
    /// written (nil otherwise: no bytes, and the renderer's colours stay set).
    func statusLine(_ index: Int) -> [UInt8]? {
        let speed = scheduler.speed == scheduler.speed.rounded() ? String(Int(scheduler.speed)) : String(scheduler.speed)
        let text = " \(name)  frame \(index + 1)/\(file.frameCount)  speed \(speed)x  dropped \(stats.framesDropped)"
            + (scheduler.isPaused ? "  paused" : "")
        guard text != lastStatus else { return nil }
        lastStatus = text
        renderer.colorsWereReset()
        return Array("\u{1B}[\(layout.rows + 1);1H\u{1B}[0m\u{1B}[7m\(text.prefix(max(layout.columns - 1, 1)))\u{1B}[0m\u{1B}[K".utf8)
    }

    /// Plays until the end, `q`, or a closed output.
    public func run() throws -> PlayerStatistics {
        signal(SIGPIPE, SIG_IGN)       // a closed output is an EPIPE to handle, not a death
        if options.interactive { try runInteractive() } else if options.noWait { try runAsFastAsPossible() } else { try runTimed() }
        let s = frames.cache.statistics
        stats.decodedFrames = s.framesDecoded
        stats.cacheHits = s.hits
        stats.peakCacheBytes = s.peakBytes
        return stats
    }

    func runAsFastAsPossible() throws {
        let plays = options.loops ?? 1
        for _ in 0..<max(plays, 1) {
            for i in 0..<file.frameCount {
                if try !show(i) { stats.outcome = .outputClosed; return }
            }
        }
    }

    func runTimed() throws {
        var last = -1
        while true {
            let tick = scheduler.tick()
            stats.framesDropped += tick.skipped
            if tick.frame != last || last < 0 {
                if try !show(tick.frame) { stats.outcome = .outputClosed; return }
                last = tick.frame
            }
            guard let deadline = tick.nextDeadline, !tick.finished else { return }
            sleep(until: deadline)
        }
    }

    func sleep(until deadline: Int64) { clock.sleep(until: deadline) }
}
