import AnimKit

/// One animation in its box of the screen: the file, its frames through a
/// cache at the box's size, its own scheduler and backend.
final class Pane {
    /// The file, indexed once for the whole play (a newer snapshot while a stream arrives).
    var file: ImageSource
    /// The stream `file` comes from, while it is still arriving.
    let stream: IncrementalImageSource?
    /// The file's name, for the status line.
    let name: String
    /// The frames at the box's size, through the cache (a new one after a resize).
    var frames: CachedFrameSource!
    let scheduler: FrameScheduler
    let backend: FrameBackend
    var layout = PaneLayout()
    var stats = PlayerStatistics()
    /// The file's frame the scheduler's frame 0 is (`PlayTiming.frames`).
    let first: Int
    /// When the last frame was written, on the player's clock.
    var lastWrite: Int64 = 0
    /// `openFrames`' last arguments, and whether the terminal kept the frames.
    private var cacheArguments: (limit: Int?, memory: Int, few: Bool)?

    /// A file to play: the source, its stream (nil: a file), whether that ended, its name.
    typealias File = (source: ImageSource, stream: IncrementalImageSource?, ended: Bool, name: String)

    /// Plays `f`'s frames of `options.timing` (checked), as often as asked.
    init(_ f: File, options: PlayerOptions, backend: FrameBackend, clock: PlaybackClock) throws {
        let (source, timing) = (f.source, options.timing)
        // (A range past the last frame ends at it, as `anim extract --frames`.)
        let asked = timing.frames ?? 0...(max(source.frameCount, 1) - 1)
        guard f.stream == nil || timing.frames == nil, asked.lowerBound >= 0, asked.lowerBound < source.frameCount else {
            throw PlayerError.framesOutside(asked, count: source.frameCount)
        }
        (file, stream, name, self.backend, first) = (source, f.stream, f.name, backend, asked.lowerBound)
        scheduler = FrameScheduler(
            durations: source.frames[asked.lowerBound...min(asked.upperBound, source.frameCount - 1)].map(\.duration),
            plays: timing.loops.map { $0 == 0 ? .forever : .count($0) } ?? (options.interactive ? source.plays : .count(1)),
            speed: timing.speed, clock: clock)
        scheduler.isOpenEnded = !f.ended
    }

    /// Opens `file`'s frames at the placement's size through a new cache
    /// (the index shared, the old cache's figures kept for the statistics):
    /// `cacheLimit` (or the default), at most what `memory` (this pane's
    /// share) leaves beside the decoding and two frames being drawn. Where
    /// the terminal keeps the frames (`FrameBackend.keepsFrames`), two
    /// frames: keeping them all again cost memory and page faults. Once the
    /// terminal stops keeping them, `render` opens a cache of the full size.
    func openFrames(cacheLimit: Int?, memory: Int) throws {
        cacheArguments = (cacheLimit, memory, backend.keepsFrames)
        collectCacheFigures()
        var decoding = file.options
        decoding.resizeTo = layout.placement.pixels
        let source = try file.sharingIndex(options: decoding)
        let drawn = 2 * source.outputWidth * source.outputHeight * 4
        // (Reads through the cache decode one frame at a time: no steps ahead.)
        let room = max(memory - source.minimumMemory - drawn, 0)
        let limit = cacheLimit ?? FrameCache.defaultLimit
        frames = CachedFrameSource(source: source, limitBytes: min(backend.keepsFrames ? min(limit, drawn) : limit, room))
    }

    /// Adds the figures of the cache in use to the statistics.
    func collectCacheFigures() {
        guard let s = frames?.cache.statistics else { return }
        stats.decodedFrames += s.framesDecoded
        stats.cacheHits += s.hits
        stats.peakCacheBytes = max(stats.peakCacheBytes, s.peakBytes)
    }

    /// The bytes that draw the scheduler's frame `played` (the file's `first + played`).
    func render(_ played: Int) throws -> [UInt8] {
        let index = first + played
        if let stored = backend.renderStored(index: index, placement: layout.placement) { return stored }
        if let (limit, memory, few) = cacheArguments, few, !backend.keepsFrames {
            try openFrames(cacheLimit: limit, memory: memory)
        }
        let direction: PlaybackDirection = scheduler.mode == .reverse ? .backward : .forward
        let image = try frames.frame(at: index, direction: direction, wraps: !scheduler.isOpenEnded)
        return backend.render(image, index: index, placement: layout.placement)
    }

    /// The frame to show (nil: nothing new), the next deadline, frames
    /// skipped, whether the play is over: the scheduler's tick, or with
    /// `inOrder` (`--no-wait`) every frame in turn, `inOrder` times, at once.
    func tick(inOrder plays: Int?) -> (frame: Int?, deadline: Int64?, skipped: Int, finished: Bool) {
        guard let plays else {
            let t = scheduler.tick()
            return (t.frame, t.nextDeadline, t.skipped, t.finished)
        }
        let (count, shown) = (scheduler.frameCount, stats.framesShown)
        if scheduler.isOpenEnded && shown >= count { return (nil, nil, 0, false) }
        let finished = shown >= max(plays, 1) * count
        return (finished ? nil : shown % count, 0, 0, finished)
    }

    /// Takes in a stream's frames completed since the last look (the cache
    /// keeps its frames); once it has ended, lets the play end or loop.
    func refreshStream() throws {
        guard let stream, scheduler.isOpenEnded else { return }
        let ended = stream.isFinished  // read first: the source after it is the final one
        if let snapshot = stream.source, snapshot !== file, snapshot.frameCount >= file.frameCount {
            let known = file.frameCount
            file = snapshot
            frames.extend(with: try snapshot.sharingIndex(options: frames.source.options))
            scheduler.append(durations: snapshot.frames[known...].map(\.duration))
        }
        if ended { scheduler.isOpenEnded = false }
    }
}
