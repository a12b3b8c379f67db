/// The direction frames are being played in, for eviction and prefetch.
public enum PlaybackDirection: Sendable {
    case forward
    case backward
}

/// A cache of decoded frames bounded by bytes (and optionally a count), in
/// which each entry costs its pixel bytes plus a fixed overhead.
///
/// It knows the playback order: when room is needed it evicts the frame
/// whose next use is furthest away from the playhead in the playing
/// direction (counting around the loop), never the frame at the playhead,
/// and it refuses a frame that would be used later than everything it
/// holds. Safe to use from several threads.
public final class FrameCache: @unchecked Sendable {
    /// Bytes counted for each entry on top of its pixels (bookkeeping).
    public static let entryOverhead = 256

    /// Counters since the cache was made.
    public struct Statistics: Equatable, Sendable {
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        /// Insertions refused because the frame was the furthest away.
        public var refusals = 0
        public var bytesInUse = 0
        public var peakBytes = 0
        public var entries = 0
        /// Frames decoded to fill the cache (counted by `CachedFrameSource`).
        public var framesDecoded = 0
    }

    public let limitBytes: Int
    public let limitCount: Int?
    public let frameCount: Int
    private let lock = Lock()
    private var entries: [Int: RGBAImage] = [:]
    private var playhead = 0
    private var direction = PlaybackDirection.forward
    private var stats = Statistics()

    /// A cache for an animation of `frameCount` frames.
    public init(frameCount: Int, limitBytes: Int, limitCount: Int? = nil) {
        self.frameCount = max(frameCount, 1)
        self.limitBytes = max(limitBytes, 0)
        self.limitCount = limitCount
    }

    /// What one frame of `width`×`height` RGBA8 costs.
    public static func cost(width: Int, height: Int) -> Int { width * height * 4 + entryOverhead }

    public var statistics: Statistics {
        lock.lock(); defer { lock.unlock() }
        return stats
    }

    /// Moves the playhead: frame `index` is about to be shown.
    public func setPlayhead(_ index: Int, direction: PlaybackDirection) {
        lock.lock(); defer { lock.unlock() }
        playhead = index
        self.direction = direction
    }

    /// How many frames from the playhead until `index` is shown again.
    public func distance(to index: Int) -> Int {
        lock.lock(); defer { lock.unlock() }
        return distanceLocked(index)
    }

    private func distanceLocked(_ index: Int) -> Int {
        let d = direction == .forward ? index - playhead : playhead - index
        return ((d % frameCount) + frameCount) % frameCount
    }

    /// The cached frame `index`, counting a hit or a miss.
    public func image(at index: Int) -> RGBAImage? {
        lock.lock(); defer { lock.unlock() }
        if let image = entries[index] { stats.hits += 1; return image }
        stats.misses += 1
        return nil
    }

    /// True when frame `index` is cached (no statistics).
    public func contains(_ index: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return entries[index] != nil
    }

    /// True when a frame at `index` costing `cost` would be kept: it fits,
    /// or enough frames used later than it can be evicted.
    public func wouldAccept(_ index: Int, cost: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return plan(index, cost: cost) != nil
    }

    /// Stores frame `index`, evicting frames used later if needed. Returns
    /// false (and stores nothing) when it would not fit without evicting a
    /// frame used sooner, or the frame at the playhead.
    @discardableResult
    public func insert(_ image: RGBAImage, at index: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if entries[index] != nil { return true }
        let cost = Self.cost(width: image.width, height: image.height)
        guard let victims = plan(index, cost: cost) else { stats.refusals += 1; return false }
        for v in victims {
            if let old = entries.removeValue(forKey: v) {
                stats.bytesInUse -= Self.cost(width: old.width, height: old.height)
                stats.evictions += 1
            }
        }
        entries[index] = image
        stats.bytesInUse += cost
        stats.entries = entries.count
        stats.peakBytes = max(stats.peakBytes, stats.bytesInUse)
        return true
    }

    /// The cached frame indices and the sum of their costs, recomputed (for
    /// checks that the running total is right).
    public var audit: (indices: [Int], totalCost: Int) {
        lock.lock(); defer { lock.unlock() }
        return (entries.keys.sorted(), entries.values.reduce(0) { $0 + Self.cost(width: $1.width, height: $1.height) })
    }

    /// Evicts what must go for frame `index` (costing `cost`) to fit, before
    /// it is decoded, so that the new frame and the ones it replaces never
    /// take memory together. Returns false if it would not be kept.
    @discardableResult
    public func makeRoom(for index: Int, cost: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard entries[index] == nil else { return true }
        guard let victims = plan(index, cost: cost) else { return false }
        for v in victims {
            if let old = entries.removeValue(forKey: v) {
                stats.bytesInUse -= Self.cost(width: old.width, height: old.height)
                stats.evictions += 1
            }
        }
        stats.entries = entries.count
        return true
    }

    /// Removes every entry (statistics are kept).
    public func removeAll() {
        lock.lock(); defer { lock.unlock() }
        entries.removeAll()
        stats.bytesInUse = 0
        stats.entries = 0
    }

    /// Counts a decode done to fill the cache.
    func countDecode() {
        lock.lock(); defer { lock.unlock() }
        stats.framesDecoded += 1
    }

    /// The entries to evict so that `index` fits, furthest first, or nil.
    private func plan(_ index: Int, cost: Int) -> [Int]? {
        guard cost <= limitBytes else { return nil }
        var bytes = stats.bytesInUse + cost
        var count = entries.count + 1
        func over() -> Bool { bytes > limitBytes || (limitCount.map { count > $0 } ?? false) }
        if !over() { return [] }
        let mine = distanceLocked(index)
        let candidates = entries.keys
            .filter { $0 != playhead && distanceLocked($0) > mine }
            .sorted { distanceLocked($0) > distanceLocked($1) }
        var victims: [Int] = []
        for v in candidates where over() {
            victims.append(v)
            bytes -= Self.cost(width: entries[v]!.width, height: entries[v]!.height)
            count -= 1
        }
        return over() ? nil : victims
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
