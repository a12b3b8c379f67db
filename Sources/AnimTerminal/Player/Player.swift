import AnimKit
#if canImport(Glibc)
import Glibc
#endif

/// Plays an animation in the terminal: frames at cell resolution through
/// the frame cache, timed by a `FrameScheduler`, drawn by a diffing
/// `FrameRenderer`, with keys, resize and suspend handled.
public final class Player {
    var file: ImageSource
    /// The stream `file` comes from, while it is still arriving.
    let stream: IncrementalImageSource?
    let name: String
    var options: PlayerOptions
    let clock: PlaybackClock
    var stats = PlayerStatistics()
    var renderer: FrameRenderer
    var frames: CachedFrameSource!
    var layout = Layout(columns: 80, rows: 24, origin: (1, 1))
    var fitSize = PixelSize(width: 1, height: 1)
    /// Figures of caches replaced after a resize.
    var retired = (decoded: 0, hits: 0, peak: 0)
    var scheduler: FrameScheduler
    var lastWrite: Int64 = 0
    var lastStatus = ""
    let start: Int64

    struct Layout {
        var columns: Int, rows: Int
        var origin: (row: Int, column: Int)
    }

    /// `clock`: where time comes from (tests pass a `ManualClock`).
    public convenience init(source: ImageSource, name: String, options: PlayerOptions,
                            clock: PlaybackClock = MonotonicClock()) throws {
        try self.init(source: source, stream: nil, streamEnded: true, name: name, options: options, clock: clock)
    }

    /// Plays a stream as it arrives, from its first complete frame on:
    /// frames are taken in as they complete, and at the end of those that
    /// have arrived the player holds the last one until more come. Throws
    /// if not even one frame is complete yet.
    public convenience init(stream: IncrementalImageSource, name: String, options: PlayerOptions,
                            clock: PlaybackClock = MonotonicClock()) throws {
        let ended = stream.isFinished          // before the snapshot: it then holds every frame
        guard let source = stream.source, source.frameCount > 0 else {
            throw stream.error ?? AnimError.truncated(file: stream.name, frame: 0, offset: stream.byteCount,
                                                      detail: "no complete frame yet")
        }
        try self.init(source: source, stream: stream, streamEnded: ended, name: name, options: options, clock: clock)
    }

    init(source: ImageSource, stream: IncrementalImageSource?, streamEnded: Bool, name: String,
         options: PlayerOptions, clock: PlaybackClock) throws {
        self.clock = clock
        self.file = source
        self.stream = stream
        self.name = name
        self.options = options
        renderer = FrameRenderer(mode: options.colorMode, tolerance: options.colorTolerance)
        let plays: Plays = options.loops.map { $0 == 0 ? .forever : .count($0) } ?? (options.interactive ? source.plays : .count(1))
        start = clock.nanoseconds()
        scheduler = FrameScheduler(durations: source.frames.map(\.duration), plays: plays,
                                   speed: options.speed, clock: clock)
        scheduler.isOpenEnded = !streamEnded
        try relayout()
    }

    /// What went wrong in the file after the last frame that could be
    /// played (it is truncated or corrupt there), once it has all been read.
    public var sourceError: AnimError? { stream?.error ?? file.indexError }

    /// Fits the animation into the cell box and (re)opens the cached frames at that size.
    func relayout() throws {
        let size = Terminal.size(fd: options.output)
        let columns = options.columns ?? size?.columns ?? 80
        let rows = max((options.rows ?? size?.rows ?? 24) - (options.showStatus && options.interactive ? 1 : 0), 1)
        let fit = Downsampler.fit(width: file.width, height: file.height, maxWidth: max(columns, 1), maxHeight: rows * 2)
        let gridRows = (fit.height + 1) / 2
        let origin = options.interactive ? (1 + (rows - gridRows) / 2, 1 + (columns - fit.width) / 2) : (1, 1)
        layout = Layout(columns: columns, rows: rows, origin: origin)
        fitSize = PixelSize(width: fit.width, height: fit.height)
        try openFrames()
        renderer.invalidate()
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
        decoding.fitIn = fitSize
        frames = CachedFrameSource(source: try file.reopened(options: decoding),
                                   limitBytes: options.cacheLimit ?? FrameCache.defaultLimit)
    }

    /// Shows frame `index`; false when the output has gone away.
    func show(_ index: Int) throws -> Bool {
        let direction: PlaybackDirection = scheduler.mode == .reverse ? .backward : .forward
        let image = try frames.frame(at: index, direction: direction, wraps: !scheduler.isOpenEnded)
        let grid = CellGrid(image: image, background: options.background, mode: options.colorMode)
        var bytes = Escape.syncBegin + renderer.render(grid, row: layout.origin.row, column: layout.origin.column)
        if options.showStatus && options.interactive { bytes += statusLine(index) ?? [] }
        bytes += Escape.syncEnd
        let now = clock.nanoseconds()
        if stats.framesShown == 0 { stats.firstFrameMs = Double(now - start) / 1e6 }
        else { stats.intervals.append(Double(now - lastWrite) / 1e6) }
        lastWrite = now
        stats.framesShown += 1
        // Deadlines count from when the first frame is on screen, not from
        // before it was decoded: its full duration is shown.
        if stats.framesShown == 1 { scheduler.startCurrentFrameNow() }
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
        stats.decodedFrames = retired.decoded + s.framesDecoded
        stats.cacheHits = retired.hits + s.hits
        stats.peakCacheBytes = max(retired.peak, s.peakBytes)
        return stats
    }

    func runAsFastAsPossible() throws {
        let plays = options.loops ?? 1
        for _ in 0..<max(plays, 1) {
            var i = 0
            while true {
                try refreshStream()
                if i < file.frameCount {
                    if try !show(i) { stats.outcome = .outputClosed; return }
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
                if try !show(tick.frame) { stats.outcome = .outputClosed; return }
                last = tick.frame
            }
            if tick.finished { return }
            guard let deadline = tick.nextDeadline else {
                stream?.waitForData(timeoutMs: 100)      // waiting for frames of a stream
                continue
            }
            clock.sleep(until: deadline)
        }
    }
}
