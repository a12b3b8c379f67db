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
/// from several threads: each operation takes the lock once.
///
/// `Sendable`: every mutable field is in `State`, behind a `Locked`.
public final class FrameCache: FrameStore, Sendable {
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
        /// Frames decoded to fill the cache (by a `CachedFrameSource`).
        public var framesDecoded = 0
    }

    /// The budget in bytes for frames and checkpoints together (never negative).
    public let limitBytes: Int
    /// The most frames held at once (checkpoints not counted); nil: only bytes
    /// are limited.
    public let limitCount: Int?
    private let state: Locked<State>

    /// A cache for an animation of `frameCount` frames.
    public init(frameCount: Int, limitBytes: Int, limitCount: Int? = nil) {
        self.limitBytes = max(limitBytes, 0)
        self.limitCount = limitCount
        let count = max(frameCount, 1)
        state = Locked(State(limits: (max(limitBytes, 0), limitCount), count: count, decodes: Array(repeating: 0, count: count)))
    }

    /// What one frame of `width`×`height` RGBA8 costs.
    public static func cost(width: Int, height: Int) -> Int { width * height * 4 + entryOverhead }

    /// Frames in the animation (it grows with a stream: `grow(toFrameCount:)`).
    public var frameCount: Int { state.withLock { $0.count } }

    /// A copy of the counters as they are now.
    public var statistics: Statistics {
        state.withLock { s in
            var stats = s.stats
            (stats.entries, stats.checkpoints) = (s.entries.count, s.checkpoints.count)
            return stats
        }
    }

    /// How many times each frame has been decoded to fill the cache.
    var decodeCounts: [Int] { state.withLock { $0.decodes } }

    /// Moves the playhead: frame `index` is about to be shown.
    func setPlayhead(_ index: Int, direction: PlaybackDirection) {
        state.withLock { ($0.playhead, $0.direction) = (index, direction) }
    }

    /// The animation has `frameCount` frames now (a stream grew); what is
    /// cached stays.
    public func grow(toFrameCount frameCount: Int) {
        state.withLock { s in
            s.count = max(s.count, frameCount)
            s.decodes += [Int](repeating: 0, count: max(s.count - s.decodes.count, 0))
        }
    }

    /// The cached frame `index`, counting a hit or a miss.
    public func image(at index: Int) -> RGBAImage? {
        state.withLock { s in
            let image = s.entries[index]
            if image != nil { s.stats.hits += 1 } else { s.stats.misses += 1 }
            return image
        }
    }

    /// True when frame `index` is cached (no statistics).
    public func contains(_ index: Int) -> Bool { state.withLock { $0.entries[index] != nil } }

    /// Nil when frame `index` is cached; else whether a frame there costing
    /// `cost` would be kept: it fits, or enough frames used later than it
    /// can be evicted.
    func wantsAhead(_ index: Int, cost: Int) -> Bool? {
        state.withLock { $0.entries[index] != nil ? nil : $0.plan(index, cost: cost) != nil }
    }

    /// Stores frame `index`, evicting frames used later if needed. Returns
    /// false (and stores nothing) when it would not fit without evicting a
    /// frame used sooner, or the frame at the playhead.
    @discardableResult
    public func insert(_ image: RGBAImage, at index: Int) -> Bool {
        state.withLock { $0.insert(image, at: index) }
    }

    /// Keeps frame `index`, decoded to fill the cache, and counts the decode.
    func keep(_ image: RGBAImage, at index: Int) {
        state.withLock { s in
            s.stats.framesDecoded += 1
            if index < s.decodes.count { s.decodes[index] += 1 }
            s.insert(image, at: index)
        }
    }

    /// Evicts what must go for frame `index` (costing `cost`) to fit, before
    /// it is decoded, so that the new frame and the ones it replaces never
    /// take memory together.
    func makeRoom(for index: Int, cost: Int) {
        state.withLock { s in
            if s.entries[index] == nil { _ = s.makeRoom(index, cost: cost, refusal: false) }
        }
    }

    /// The cached frame indices and the sum of their costs, recomputed (for
    /// checks that the running total is right).
    var audit: (indices: [Int], totalCost: Int) {
        state.withLock { s in
            let keys = s.entries.keys.map { Key.frame($0) } + s.checkpoints.keys.map { Key.checkpoint($0) }
            return (s.entries.keys.sorted(), keys.reduce(0) { $0 + s.cost(of: $1) })
        }
    }

    /// Removes every entry (statistics are kept).
    public func removeAll() {
        state.withLock { s in
            s.entries.removeAll()
            s.checkpoints.removeAll()
            (s.stats.bytesInUse, s.stats.checkpointBytes) = (0, 0)
        }
    }

    /// Keeps a checkpoint after frame `index` costing `cost`, taken by
    /// `take` once room is made (evicting farther checkpoints only), if it
    /// is worth its room.
    func keepCheckpoint(frame index: Int, cost: Int, _ take: () -> Compositor.Snapshot?) {
        let reserved = state.withLock { s in
            s.checkpoints[index] == nil
                && s.makeRoom(index, cost: cost + FrameCache.entryOverhead, checkpoint: true, refusal: true)
        }
        guard reserved, let snapshot = take() else { return }
        state.withLock { s in
            let cost = snapshot.cost + FrameCache.entryOverhead
            guard s.checkpoints[index] == nil, s.makeRoom(index, cost: cost, checkpoint: true, refusal: true) else { return }
            s.checkpoints[index] = snapshot
            s.add(cost)
            s.stats.checkpointBytes += cost
        }
    }

    /// The checkpoint with the largest frame index in `range`.
    func checkpoint(in range: ClosedRange<Int>) -> (frame: Int, snapshot: Compositor.Snapshot)? {
        state.withLock { s in
            guard let best = s.checkpoints.keys.filter({ range.contains($0) }).max() else { return nil }
            return (best, s.checkpoints[best]!)
        }
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
