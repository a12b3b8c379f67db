/// Frames of an `ImageSource` through a `FrameCache`, decoded ahead.
///
/// `frame(at:direction:wraps:)` serves from the cache or decodes; then the
/// source's `DecodeAhead` composites the frames after the playhead into the
/// cache, redirected by a seek or a change of direction.
///
/// `Sendable`: the source is behind a `Locked`; the cache is `Sendable`.
public final class CachedFrameSource: Sendable {
    /// The source frames come from (a newer one after `extend(with:)`).
    public var source: ImageSource { current.withLock { $0 } }
    /// The cache in front of the source, holding frames and checkpoints.
    public let cache: FrameCache
    private let decodesAhead: Bool
    private let current: Locked<ImageSource>

    /// A cache of `limitBytes` (default: `FrameCache.defaultLimit`) in front
    /// of `source`; `prefetch` false: no frame is decoded ahead.
    public init(
        source: ImageSource, limitBytes: Int = FrameCache.defaultLimit, limitCount: Int? = nil,
        prefetch: Bool = true
    ) {
        cache = FrameCache(frameCount: source.frameCount, limitBytes: limitBytes, limitCount: limitCount)
        decodesAhead = prefetch
        current = Locked(source)
    }

    /// What one delivered frame costs in the cache.
    public var frameCost: Int { FrameCache.cost(width: source.outputWidth, height: source.outputHeight) }

    /// Frame `index`, about to be shown while playing in `direction`; `wraps`:
    /// playback goes on past the end (another loop follows), so decode-ahead
    /// may decode the start of the next loop.
    public func frame(at index: Int, direction: PlaybackDirection = .forward, wraps: Bool = true) throws -> RGBAImage {
        cache.setPlayhead(index, direction: direction)
        let source = self.source
        let cost = frameCost
        let image = try source.frame(at: index, through: cache, cost: cost)
        if decodesAhead {
            source.ahead.frames(after: index, direction: direction, wraps: wraps, cost: cost, of: source, into: cache)
        }
        return image
    }

    /// Goes on with `newer`, the same animation with more frames (a stream that
    /// grew): cached frames stay, and decoding continues from the canvas
    /// reached so far.
    public func extend(with newer: ImageSource) {
        let older = source
        older.ahead.stop()  // decoding ahead stops at its next frame
        newer.continueDecoding(from: older)
        cache.grow(toFrameCount: newer.frameCount)
        current.set(newer)
    }

    /// Waits until decoding ahead is idle (for tests and benchmarks).
    package func waitForPrefetch() { source.ahead.drain() }
}
