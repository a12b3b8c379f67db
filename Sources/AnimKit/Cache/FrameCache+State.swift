extension FrameCache {
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

    /// What the cache holds and counts; reached only through its lock, and
    /// changed only by the cache's operations, each under one lock.
    struct State {
        let limits: (bytes: Int, count: Int?)
        /// Frames in the animation.
        var count: Int
        var entries: [Int: RGBAImage] = [:]
        var checkpoints: [Int: Compositor.Snapshot] = [:]
        var playhead = 0
        var direction = PlaybackDirection.forward
        var stats = Statistics()
        /// Decodes per frame, to fill the cache.
        var decodes: [Int]

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
                let bytes = self.cost(of: v)
                stats.bytesInUse -= bytes
                switch v {
                case .frame(let i): entries[i] = nil
                case .checkpoint(let i):
                    checkpoints[i] = nil
                    stats.checkpointBytes -= bytes
                }
            }
            stats.evictions += victims.count
            return true
        }

        /// What to evict so that something at `index` costing `cost` fits,
        /// furthest first; nil if only nearer things could make room. Frames
        /// come before checkpoints: a frame will be shown, a checkpoint only
        /// speeds a seek. So a frame may evict any checkpoint (those first), and
        /// a checkpoint only farther checkpoints.
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
            let frameKeys =
                checkpoint
                ? []
                : entries.keys.filter { $0 != playhead && distance($0) > mine }
                    .map { Key.frame($0) }.sorted(by: farthestFirst)
            var victims: [Key] = []
            for v in checkpointKeys + frameKeys where over() {
                if case .checkpoint = v, bytes <= limits.bytes { continue }  // only bytes make checkpoints go
                victims.append(v)
                bytes -= self.cost(of: v)
                if case .frame = v { count -= 1 }
            }
            return over() ? nil : victims
        }
    }
}
