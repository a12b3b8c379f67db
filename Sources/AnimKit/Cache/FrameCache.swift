/// A cache of decoded frames bounded by bytes (and optionally a count), in
/// which each entry costs its pixel bytes plus a fixed overhead.
///
/// It knows the playback order: when room is needed it evicts the frame whose
/// next use is furthest from the playhead in the playing direction (counting
/// around the loop), never the frame at the playhead, and it refuses a frame
/// used later than everything it holds. Checkpoints (canvases from which an
/// `ImageSource` can start a seek) share the budget and the rule.
///
/// `Sendable`: every mutable field is in `State`, behind a `Locked`; each
/// operation takes the lock once.
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
    public var limitBytes: Int { state.withLock { $0.limits.bytes } }
    /// The most frames held at once (checkpoints not counted); nil: only bytes are limited.
    public var limitCount: Int? { state.withLock { $0.limits.count } }
    private let state: Locked<State>

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

    /// What the cache holds and counts, changed only by its operations under the lock.
    struct State {
        let limits: (bytes: Int, count: Int?)
        var entries: [Int: RGBAImage] = [:]
        var checkpoints: [Int: Compositor.Snapshot] = [:]
        var playhead = 0
        var direction = PlaybackDirection.forward
        var stats = Statistics()
        /// Decodes per frame, to fill the cache: one entry a frame of the animation.
        var decodes: [Int]
        var count: Int { decodes.count }

        /// How many frames from the playhead until `index` is shown again.
        func distance(_ index: Int) -> Int {
            let d = direction == .forward ? index - playhead : playhead - index
            return ((d % count) + count) % count
        }

        /// Stores frame `index` unless it is the furthest away (`plan`).
        @discardableResult
        mutating func insert(_ image: RGBAImage, at index: Int) -> Bool {
            if entries[index] != nil { return true }
            let cost = FrameCache.cost(width: image.width, height: image.height)
            guard makeRoom(index, cost: cost, refusal: true) else { return false }
            entries[index] = image
            add(cost)
            return true
        }

        mutating func add(_ cost: Int) {
            stats.bytesInUse += cost
            stats.peakBytes = max(stats.peakBytes, stats.bytesInUse)
        }

        func cost(of key: Key) -> Int {
            switch key {
            case .frame(let i): return entries[i].map { FrameCache.cost(width: $0.width, height: $0.height) } ?? 0
            case .checkpoint(let i): return checkpoints[i].map { $0.cost + FrameCache.entryOverhead } ?? 0
            }
        }

        /// Evicts what `plan` says must go for something at `index` costing
        /// `cost` to fit; false, nothing evicted (a refusal counted with
        /// `refusal`), when only nearer things could make room.
        mutating func makeRoom(_ index: Int, cost: Int, checkpoint: Bool = false, refusal: Bool) -> Bool {
            guard let victims = plan(index, cost: cost, checkpoint: checkpoint) else {
                if refusal { stats.refusals += 1 }
                return false
            }
            for v in victims {
                stats.bytesInUse -= self.cost(of: v)
                switch v {
                case .frame(let i): entries[i] = nil
                case .checkpoint(let i): checkpoints[i] = nil
                }
            }
            stats.evictions += victims.count
            return true
        }

        /// What to evict so that something at `index` costing `cost` fits, furthest
        /// first; nil if only nearer things could make room. A frame will be shown, a
        /// checkpoint only speeds a seek: so a frame may evict any checkpoint (those
        /// first), and a checkpoint only farther checkpoints.
        func plan(_ index: Int, cost: Int, checkpoint: Bool = false) -> [Key]? {
            guard cost <= limits.bytes else { return nil }
            var bytes = stats.bytesInUse + cost
            var count = entries.count + (checkpoint ? 0 : 1)  // the count limit is on frames
            func over() -> Bool { bytes > limits.bytes || (limits.count.map { count > $0 } ?? false) }
            if !over() { return [] }
            let mine = distance(index)
            let farthestFirst: (Key, Key) -> Bool = { self.distance($0.index) > self.distance($1.index) }
            let checkpointKeys = checkpoints.keys.map { Key.checkpoint($0) }
                .filter { !checkpoint || distance($0.index) > mine }.sorted(by: farthestFirst)
            let frameKeys = entries.keys.filter { !checkpoint && $0 != playhead && distance($0) > mine }.map { Key.frame($0) }
            var victims: [Key] = []
            for v in checkpointKeys + frameKeys.sorted(by: farthestFirst) where over() {
                if case .checkpoint = v, bytes <= limits.bytes { continue }  // only bytes make checkpoints go
                victims.append(v)
                bytes -= self.cost(of: v)
                if case .frame = v { count -= 1 }
            }
            return over() ? nil : victims
        }
    }

    /// A cache for an animation of `frameCount` frames.
    public init(frameCount: Int, limitBytes: Int, limitCount: Int? = nil) {
        state = Locked(State(limits: (max(limitBytes, 0), limitCount), decodes: Array(repeating: 0, count: max(frameCount, 1))))
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
            stats.framesDecoded = s.decodes.reduce(0, +)
            stats.checkpointBytes = s.checkpoints.keys.reduce(0) { $0 + s.cost(of: .checkpoint($1)) }
            return stats
        }
    }

    /// How many times each frame has been decoded to fill the cache.
    var decodeCounts: [Int] { state.withLock { $0.decodes } }

    /// Moves the playhead: frame `index` is about to be shown.
    func setPlayhead(_ index: Int, direction: PlaybackDirection) {
        state.withLock { ($0.playhead, $0.direction) = (index, direction) }
    }

    /// The animation has `frameCount` frames now (a stream grew); what is cached stays.
    public func grow(toFrameCount frameCount: Int) {
        state.withLock { $0.decodes += [Int](repeating: 0, count: max(frameCount - $0.count, 0)) }
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

    func wantsAhead(_ index: Int, cost: Int) -> Bool? {
        state.withLock { $0.entries[index] != nil ? nil : $0.plan(index, cost: cost) != nil }
    }

    /// Stores frame `index`, evicting frames used later if needed; false,
    /// nothing stored, when it would not fit without evicting a frame used
    /// sooner, or the frame at the playhead.
    @discardableResult
    public func insert(_ image: RGBAImage, at index: Int) -> Bool {
        state.withLock { $0.insert(image, at: index) }
    }

    func keep(_ image: RGBAImage, at index: Int) {
        state.withLock { s in
            if index < s.decodes.count { s.decodes[index] += 1 }
            s.insert(image, at: index)
        }
    }

    func makeRoom(for index: Int, cost: Int) {
        state.withLock { s in
            if s.entries[index] == nil { _ = s.makeRoom(index, cost: cost, refusal: false) }
        }
    }

    /// The cached frame indices and the sum of all costs, recomputed (for
    /// checks of the running total).
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
            s.stats.bytesInUse = 0
        }
    }

    /// Room is made by evicting farther checkpoints only.
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
        }
    }

    func checkpoint(in range: ClosedRange<Int>) -> (frame: Int, snapshot: Compositor.Snapshot)? {
        state.withLock { s in
            s.checkpoints.filter { range.contains($0.key) }.max { $0.key < $1.key }.map { (frame: $0.key, snapshot: $0.value) }
        }
    }

    /// The default budget: the smaller of 20% of physical memory and 60% of
    /// the memory available now, at most 1 GiB and at least 16 MiB.
    public static var defaultLimit: Int {
        let physical = System.physicalMemory
        let available = System.availableMemory ?? physical
        return min(max(min(physical / 5, available / 5 * 3), 16 << 20), 1 << 30)
    }
}
