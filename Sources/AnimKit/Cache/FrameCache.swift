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
/// holds. It also keeps checkpoints, composited canvases from which an
/// `ImageSource` can start a seek instead of going back to a keyframe; they
/// are charged to the same budget and evicted by the same rule. Safe to use
/// from several threads.
///
/// `@unchecked Sendable`: every mutable field is read and written with `lock`
/// held.
public final class FrameCache: CheckpointStore, @unchecked Sendable {
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
    /// Frames in the animation (it grows with a stream: `grow(toFrameCount:)`).
    public var frameCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
    private var count: Int
    private let lock = Lock()
    private var entries: [Int: RGBAImage] = [:]
    private var checkpoints: [Int: Compositor.Snapshot] = [:]
    private var playhead = 0
    private var direction = PlaybackDirection.forward
    private var stats = Statistics()

    /// A cache for an animation of `frameCount` frames.
    public init(frameCount: Int, limitBytes: Int, limitCount: Int? = nil) {
        self.count = max(frameCount, 1)
        self.limitBytes = max(limitBytes, 0)
        self.limitCount = limitCount
    }

    /// What one frame of `width`×`height` RGBA8 costs.
    public static func cost(width: Int, height: Int) -> Int { width * height * 4 + entryOverhead }

    /// A copy of the counters as they are now.
    public var statistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    /// Moves the playhead: frame `index` is about to be shown.
    func setPlayhead(_ index: Int, direction: PlaybackDirection) {
        lock.lock()
        defer { lock.unlock() }
        playhead = index
        self.direction = direction
    }

    /// How many frames from the playhead until `index` is shown again.
    func distance(to index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return distanceLocked(index)
    }

    private func distanceLocked(_ index: Int) -> Int {
        let d = direction == .forward ? index - playhead : playhead - index
        return ((d % count) + count) % count
    }

    /// The animation has `frameCount` frames now (a stream grew); what is
    /// cached stays.
    public func grow(toFrameCount frameCount: Int) {
        lock.lock()
        defer { lock.unlock() }
        count = max(count, frameCount)
    }

    /// The cached frame `index`, counting a hit or a miss.
    public func image(at index: Int) -> RGBAImage? {
        lock.lock()
        defer { lock.unlock() }
        if let image = entries[index] {
            stats.hits += 1
            return image
        }
        stats.misses += 1
        return nil
    }

    /// True when frame `index` is cached (no statistics).
    public func contains(_ index: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return entries[index] != nil
    }

    /// True when a frame at `index` costing `cost` would be kept: it fits,
    /// or enough frames used later than it can be evicted.
    func wouldAccept(_ index: Int, cost: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return plan(index, cost: cost) != nil
    }

    /// Stores frame `index`, evicting frames used later if needed. Returns
    /// false (and stores nothing) when it would not fit without evicting a
    /// frame used sooner, or the frame at the playhead.
    @discardableResult
    public func insert(_ image: RGBAImage, at index: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if entries[index] != nil { return true }
        let cost = Self.cost(width: image.width, height: image.height)
        guard let victims = plan(index, cost: cost) else {
            stats.refusals += 1
            return false
        }
        evict(victims)
        entries[index] = image
        stats.bytesInUse += cost
        stats.entries = entries.count
        stats.peakBytes = max(stats.peakBytes, stats.bytesInUse)
        return true
    }

    /// The cached frame indices and the sum of their costs, recomputed (for
    /// checks that the running total is right).
    var audit: (indices: [Int], totalCost: Int) {
        lock.lock()
        defer { lock.unlock() }
        let frames = entries.values.reduce(0) { $0 + Self.cost(width: $1.width, height: $1.height) }
        return (entries.keys.sorted(), frames + checkpoints.values.reduce(0) { $0 + $1.cost + Self.entryOverhead })
    }

    /// Evicts what must go for frame `index` (costing `cost`) to fit, before
    /// it is decoded, so that the new frame and the ones it replaces never
    /// take memory together. Returns false if it would not be kept.
    @discardableResult
    func makeRoom(for index: Int, cost: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard entries[index] == nil else { return true }
        guard let victims = plan(index, cost: cost) else { return false }
        evict(victims)
        return true
    }

    /// Removes every entry (statistics are kept).
    public func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll()
        checkpoints.removeAll()
        stats.bytesInUse = 0
        stats.entries = 0
        stats.checkpoints = 0
        stats.checkpointBytes = 0
    }

    /// Counts a decode done to fill the cache.
    func countDecode() {
        lock.lock()
        defer { lock.unlock() }
        stats.framesDecoded += 1
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

    private func cost(of key: Key) -> Int {
        switch key {
        case .frame(let i): return entries[i].map { Self.cost(width: $0.width, height: $0.height) } ?? 0
        case .checkpoint(let i): return checkpoints[i].map { $0.cost + Self.entryOverhead } ?? 0
        }
    }

    /// What to evict so that something at `index` costing `cost` fits,
    /// furthest first; nil if only nearer things could make room. Frames
    /// come before checkpoints: a frame will be shown, a checkpoint only
    /// speeds a seek. So a frame may evict any checkpoint (those first), and
    /// a checkpoint only farther checkpoints.
    private func plan(_ index: Int, cost: Int, checkpoint: Bool = false) -> [Key]? {
        guard cost <= limitBytes else { return nil }
        var bytes = stats.bytesInUse + cost
        var count = entries.count + (checkpoint ? 0 : 1)  // the count limit is on frames
        func over() -> Bool { bytes > limitBytes || (limitCount.map { count > $0 } ?? false) }
        if !over() { return [] }
        let mine = distanceLocked(index)
        let farthestFirst: (Key, Key) -> Bool = { self.distanceLocked($0.index) > self.distanceLocked($1.index) }
        let checkpointKeys = checkpoints.keys.map { Key.checkpoint($0) }
            .filter { !checkpoint || distanceLocked($0.index) > mine }.sorted(by: farthestFirst)
        let frameKeys =
            checkpoint
            ? []
            : entries.keys.filter { $0 != playhead && distanceLocked($0) > mine }
                .map { Key.frame($0) }.sorted(by: farthestFirst)
        let candidates = checkpointKeys + frameKeys
        var victims: [Key] = []
        for v in candidates where over() {
            if case .checkpoint = v, bytes <= limitBytes { continue }  // only bytes make checkpoints go
            victims.append(v)
            bytes -= self.cost(of: v)
            if case .frame = v { count -= 1 }
        }
        return over() ? nil : victims
    }

    private func evict(_ victims: [Key]) {
        for v in victims {
            stats.bytesInUse -= cost(of: v)
            if case .checkpoint = v { stats.checkpointBytes -= cost(of: v) }
            switch v {
            case .frame(let i): entries[i] = nil
            case .checkpoint(let i): checkpoints[i] = nil
            }
            stats.evictions += 1
        }
        stats.entries = entries.count
        stats.checkpoints = checkpoints.count
    }

    /// Makes room for a checkpoint after frame `index` costing `cost`
    /// (evicting farther checkpoints only), before it is taken, so that it
    /// and what it replaces never take memory together. False: do not take it.
    func reserveCheckpoint(frame index: Int, cost: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if checkpoints[index] != nil { return false }
        guard let victims = plan(index, cost: cost + Self.entryOverhead, checkpoint: true) else {
            stats.refusals += 1
            return false
        }
        evict(victims)
        return true
    }

    /// Keeps a checkpoint taken after frame `index`, if it is worth its room.
    @discardableResult
    func insertCheckpoint(_ snapshot: Compositor.Snapshot, frame index: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if checkpoints[index] != nil { return true }
        let cost = snapshot.cost + Self.entryOverhead
        guard let victims = plan(index, cost: cost, checkpoint: true) else {
            stats.refusals += 1
            return false
        }
        evict(victims)
        checkpoints[index] = snapshot
        stats.bytesInUse += cost
        stats.checkpointBytes += cost
        stats.checkpoints = checkpoints.count
        stats.peakBytes = max(stats.peakBytes, stats.bytesInUse)
        return true
    }

    /// The checkpoint with the largest frame index in `range`.
    func checkpoint(in range: ClosedRange<Int>) -> (frame: Int, snapshot: Compositor.Snapshot)? {
        lock.lock()
        defer { lock.unlock() }
        guard let best = checkpoints.keys.filter({ range.contains($0) }).max() else { return nil }
        return (best, checkpoints[best]!)
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
