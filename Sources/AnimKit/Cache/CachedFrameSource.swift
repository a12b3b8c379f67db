import Dispatch

/// Frames of an `ImageSource` through a `FrameCache`, with prefetch.
///
/// `frame(at:direction:)` serves from the cache or decodes; then a serial
/// background queue decodes ahead of the playhead in the playing direction
/// while the cache would keep the result (it stops at the first frame that
/// would be the furthest away). A seek or a change of direction redirects
/// the prefetch. At most one decode runs at a time for a source (the
/// source's own lock), and a frame being prefetched is waited for, never
/// decoded twice. Give it a source opened with `decodeAhead: 0` so that no
/// other decode runs beside it.
///
/// `Sendable`: the mutable fields are in `State`, behind a `Locked`; the
/// prefetch runs on one serial queue.
public final class CachedFrameSource: Sendable {
    /// The source frames come from (a newer one after `extend(with:)`).
    public var source: ImageSource {
        state.withLock { $0.current }
    }
    /// The cache in front of the source, holding frames and checkpoints; its
    /// `statistics` say how it did.
    public let cache: FrameCache
    private let queue = DispatchQueue(label: "anim.prefetch", qos: .userInitiated)
    private let prefetchEnabled: Bool
    private let state: Locked<State>

    /// What changes as frames are asked for and prefetched.
    private struct State {
        var current: ImageSource
        /// Bumped by every request: a prefetch started before it stops.
        var generation = 0
        /// The frame the prefetch is decoding.
        var inFlight: Int?
        /// Decodes per frame.
        var decodes: [Int]
        /// Requests waiting for `inFlight` to finish.
        var waiters = Waiters()
    }

    /// A cache of `limitBytes` (default: `FrameCache.defaultLimit`) in front
    /// of `source`.
    public init(
        source: ImageSource, limitBytes: Int = FrameCache.defaultLimit, limitCount: Int? = nil,
        prefetch: Bool = true
    ) {
        self.cache = FrameCache(frameCount: source.frameCount, limitBytes: limitBytes, limitCount: limitCount)
        self.prefetchEnabled = prefetch
        self.state = Locked(State(current: source, decodes: [Int](repeating: 0, count: source.frameCount)))
        source.useCheckpoints(cache)
    }

    /// How many times each frame has been decoded through this cache.
    var decodeCounts: [Int] {
        state.withLock { $0.decodes }
    }

    /// What one delivered frame costs in the cache.
    public var frameCost: Int { FrameCache.cost(width: source.outputWidth, height: source.outputHeight) }

    /// Frame `index`, about to be shown while playing in `direction`.
    /// `wraps` says whether playback goes on past the end (another loop
    /// follows), so that prefetch may decode the start of the next loop.
    public func frame(at index: Int, direction: PlaybackDirection = .forward, wraps: Bool = true) throws -> RGBAImage {
        cache.setPlayhead(index, direction: direction)
        state.withLock { $0.generation += 1 }
        while let prefetching = state.withLock({ $0.inFlight == index ? $0.waiters.park() : nil }) {
            prefetching.wait()  // being prefetched: wait for it
        }
        let image: RGBAImage
        if let cached = cache.image(at: index) {
            image = cached
        } else {
            cache.makeRoom(for: index, cost: frameCost)
            image = try decode(index)
            cache.insert(image, at: index)
            source.offerCheckpoint()
        }
        if prefetchEnabled { schedulePrefetch(after: index, direction: direction, wraps: wraps) }
        return image
    }

    /// Goes on with `newer`, the same animation with more frames (a
    /// stream that grew, opened at the same size): cached frames stay, and
    /// decoding continues from the canvas reached so far.
    public func extend(with newer: ImageSource) {
        state.withLock { $0.generation += 1 }  // a prefetch running stops at its next frame
        waitForPrefetch()
        newer.continueDecoding(from: source)
        newer.useCheckpoints(cache)
        cache.grow(toFrameCount: newer.frameCount)
        state.withLock {
            $0.current = newer
            if $0.decodes.count < newer.frameCount {
                $0.decodes += [Int](repeating: 0, count: newer.frameCount - $0.decodes.count)
            }
        }
    }

    /// Waits until the prefetch queue is idle (for tests and benchmarks).
    package func waitForPrefetch() { queue.sync {} }

    private func decode(_ index: Int) throws -> RGBAImage {
        let image = try source.frame(at: index)
        cache.countDecode()
        state.withLock { $0.decodes[index] += 1 }
        return image
    }

    private func schedulePrefetch(after index: Int, direction: PlaybackDirection, wraps: Bool) {
        let ticket = state.withLock { $0.generation }
        queue.async { [weak self] in self?.prefetch(after: index, direction: direction, wraps: wraps, ticket: ticket) }
    }

    private func prefetch(after index: Int, direction: PlaybackDirection, wraps: Bool, ticket: Int) {
        let n = source.frameCount
        let step = direction == .forward ? 1 : n - 1
        var next = index
        for _ in 1..<max(n, 1) {
            let following = (next + step) % n
            if !wraps && (direction == .forward ? following < next : following > next) { return }
            next = following
            if cache.contains(next) { continue }
            guard cache.wouldAccept(next, cost: frameCost) else { return }
            let wanted = state.withLock { s -> Bool in
                guard s.generation == ticket else { return false }  // a newer request redirects the prefetch
                s.inFlight = next
                return true
            }
            if !wanted { return }
            cache.makeRoom(for: next, cost: frameCost)
            let image = try? decode(next)
            if let image {
                cache.insert(image, at: next)
                source.offerCheckpoint()
            }
            state.withLock {
                $0.inFlight = nil
                $0.waiters.wakeAll()  // a request waiting for it
            }
            if image == nil { return }
        }
    }
}
