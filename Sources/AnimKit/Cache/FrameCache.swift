/// The direction frames are being played in, for eviction and prefetch.
public enum PlaybackDirection: Sendable {
    /// Frame numbers going up.
    case forward
    /// Frame numbers going down (`r` in the player).
    case backward
}

/// A cache of decoded frames bounded by bytes (and optionally a count), in
/// which each entry costs its pixel bytes plus a fixed overhead.
///
/// It knows the playback order: when room is needed it evicts the frame
/// whose next use is furthest away from the playhead in the playing
/// direction (counting around the loop), never the frame at the playhead,
/// and it refuses a frame that would be used later than everything it
/// holds. It also keeps checkpoints, composited canvases from which an
/// `ImageSource` can start a seek instead of going back to a keyframe; they
/// are charged to the same budget and evicted by the same rule. Safe to use
/// from several threads.
///
/// `Sendable`: every mutable field is in `FrameCacheContents`, behind a `Locked`.
public final class FrameCache: CheckpointStore, Sendable {
    /// Bytes counted for each entry on top of its pixels (bookkeeping).
    public static let entryOverhead = 256

    /// Counters since the cache was made.
    public struct Statistics: Equatable, Sendable {
        /// Lookups (`image(at:)`) that found the frame.
        public var hits = 0
        /// Lookups that did not find the frame.
        public var misses = 0
        /// Frames and checkpoints evicted to make room.
        public var evictions = 0
        /// Insertions refused because the frame was the furthest away.
        public var refusals = 0
        /// Bytes held now: frames and checkpoints, each with its overhead.
        public var bytesInUse = 0
        /// The largest `bytesInUse` reached.
        public var peakBytes = 0
        /// Frames held now.
        public var entries = 0
        /// Checkpoints held.
        public var checkpoints = 0
        /// Bytes of the checkpoints (included in `bytesInUse`).
        public var checkpointBytes = 0
        /// Frames decoded to fill the cache (counted by `CachedFrameSource`).
        public var framesDecoded = 0
    }

    /// The budget in bytes for frames and checkpoints together (never negative).
    public let limitBytes: Int
    /// The most frames held at once (checkpoints not counted); nil: only bytes
    /// are limited.
    public let limitCount: Int?
    private let store: Locked<FrameCacheContents>
    /// Frames in the animation (it grows with a stream: `grow(toFrameCount:)`).
    public var frameCount: Int {
        store.withLock { $0.frameCount }
    }

    /// A cache for an animation of `frameCount` frames.
    public init(frameCount: Int, limitBytes: Int, limitCount: Int? = nil) {
        self.limitBytes = max(limitBytes, 0)
        self.limitCount = limitCount
        store = Locked(FrameCacheContents(limitBytes: max(limitBytes, 0), limitCount: limitCount, count: max(frameCount, 1)))
    }

    /// What one frame of `width`×`height` RGBA8 costs.
    public static func cost(width: Int, height: Int) -> Int { width * height * 4 + entryOverhead }

    /// A copy of the counters as they are now.
    public var statistics: Statistics {
        store.withLock { $0.stats }
    }

    /// Moves the playhead: frame `index` is about to be shown.
    func setPlayhead(_ index: Int, direction: PlaybackDirection) {
        store.withLock { $0.setPlayhead(index, direction: direction) }
    }

    /// How many frames from the playhead until `index` is shown again.
    func distance(to index: Int) -> Int {
        store.withLock { $0.distance(to: index) }
    }

    /// The animation has `frameCount` frames now (a stream grew); what is
    /// cached stays.
    public func grow(toFrameCount frameCount: Int) {
        store.withLock { $0.grow(toFrameCount: frameCount) }
    }

    /// The cached frame `index`, counting a hit or a miss.
    public func image(at index: Int) -> RGBAImage? {
        store.withLock { $0.image(at: index) }
    }

    /// True when frame `index` is cached (no statistics).
    public func contains(_ index: Int) -> Bool {
        store.withLock { $0.contains(index) }
    }

    /// True when a frame at `index` costing `cost` would be kept: it fits,
    /// or enough frames used later than it can be evicted.
    func wouldAccept(_ index: Int, cost: Int) -> Bool {
        store.withLock { $0.wouldAccept(index, cost: cost) }
    }

    /// Stores frame `index`, evicting frames used later if needed. Returns
    /// false (and stores nothing) when it would not fit without evicting a
    /// frame used sooner, or the frame at the playhead.
    @discardableResult
    public func insert(_ image: RGBAImage, at index: Int) -> Bool {
        store.withLock { $0.insert(image, at: index) }
    }

    /// The cached frame indices and the sum of their costs, recomputed (for
    /// checks that the running total is right).
    var audit: (indices: [Int], totalCost: Int) {
        store.withLock { $0.audit }
    }

    /// Evicts what must go for frame `index` (costing `cost`) to fit, before
    /// it is decoded, so that the new frame and the ones it replaces never
    /// take memory together. Returns false if it would not be kept.
    @discardableResult
    func makeRoom(for index: Int, cost: Int) -> Bool {
        store.withLock { $0.makeRoom(for: index, cost: cost) }
    }

    /// Removes every entry (statistics are kept).
    public func removeAll() {
        store.withLock { $0.removeAll() }
    }

    /// Counts a decode done to fill the cache.
    func countDecode() {
        store.withLock { $0.countDecode() }
    }

    /// Something the cache holds: a frame or a checkpoint, by frame index.
    enum Key: Hashable {
        case frame(Int)
        case checkpoint(Int)
        var index: Int {
            switch self {
            case .frame(let i), .checkpoint(let i): return i
            }
        }
    }

    /// Makes room for a checkpoint after frame `index` costing `cost`
    /// (evicting farther checkpoints only), before it is taken, so that it
    /// and what it replaces never take memory together. False: do not take it.
    func reserveCheckpoint(frame index: Int, cost: Int) -> Bool {
        store.withLock { $0.reserveCheckpoint(frame: index, cost: cost) }
    }

    /// Keeps a checkpoint taken after frame `index`, if it is worth its room.
    @discardableResult
    func insertCheckpoint(_ snapshot: Compositor.Snapshot, frame index: Int) -> Bool {
        store.withLock { $0.insertCheckpoint(snapshot, frame: index) }
    }

    /// The checkpoint with the largest frame index in `range`.
    func checkpoint(in range: ClosedRange<Int>) -> (frame: Int, snapshot: Compositor.Snapshot)? {
        store.withLock { $0.checkpoint(in: range) }
    }
}

extension FrameCache {
    /// The default budget: the smaller of 20% of physical memory and 60% of
    /// the memory available now, at most 1 GiB and at least 16 MiB.
    /// (On this project's 24 GiB machines: 1 GiB.)
    public static var defaultLimit: Int {
        let physical = System.physicalMemory
        let available = System.availableMemory ?? physical
        return min(max(min(physical / 5, available / 5 * 3), 16 << 20), 1 << 30)
    }
}
