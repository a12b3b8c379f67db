/// What a `FrameCache` holds and counts; reached only through its lock.
struct FrameCacheContents {
    typealias Key = FrameCache.Key
    let limitBytes: Int
    let limitCount: Int?
    /// Frames in the animation (it grows with a stream: `grow(toFrameCount:)`).
    var frameCount: Int {
        return count
    }
    var count: Int
    var entries: [Int: RGBAImage] = [:]
    var checkpoints: [Int: Compositor.Snapshot] = [:]
    var playhead = 0
    var direction = PlaybackDirection.forward
    var stats = FrameCache.Statistics()

    /// Moves the playhead: frame `index` is about to be shown.
    mutating func setPlayhead(_ index: Int, direction: PlaybackDirection) {
        playhead = index
        self.direction = direction
    }

    /// How many frames from the playhead until `index` is shown again.
    func distance(to index: Int) -> Int {
        return distanceLocked(index)
    }

    func distanceLocked(_ index: Int) -> Int {
        let d = direction == .forward ? index - playhead : playhead - index
        return ((d % count) + count) % count
    }

    /// The animation has `frameCount` frames now (a stream grew); what is
    /// cached stays.
    mutating func grow(toFrameCount frameCount: Int) {
        count = max(count, frameCount)
    }

    /// The cached frame `index`, counting a hit or a miss.
    mutating func image(at index: Int) -> RGBAImage? {
        if let image = entries[index] {
            stats.hits += 1
            return image
        }
        stats.misses += 1
        return nil
    }

    /// True when frame `index` is cached (no statistics).
    func contains(_ index: Int) -> Bool {
        return entries[index] != nil
    }

    /// True when a frame at `index` costing `cost` would be kept: it fits,
    /// or enough frames used later than it can be evicted.
    func wouldAccept(_ index: Int, cost: Int) -> Bool {
        return plan(index, cost: cost) != nil
    }

    /// Stores frame `index`, evicting frames used later if needed. Returns
    /// false (and stores nothing) when it would not fit without evicting a
    /// frame used sooner, or the frame at the playhead.
    @discardableResult
    mutating func insert(_ image: RGBAImage, at index: Int) -> Bool {
        if entries[index] != nil { return true }
        let cost = FrameCache.cost(width: image.width, height: image.height)
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
        let frames = entries.values.reduce(0) { $0 + FrameCache.cost(width: $1.width, height: $1.height) }
        return (entries.keys.sorted(), frames + checkpoints.values.reduce(0) { $0 + $1.cost + FrameCache.entryOverhead })
    }

    /// Evicts what must go for frame `index` (costing `cost`) to fit, before
    /// it is decoded, so that the new frame and the ones it replaces never
    /// take memory together. Returns false if it would not be kept.
    @discardableResult
    mutating func makeRoom(for index: Int, cost: Int) -> Bool {
        guard entries[index] == nil else { return true }
        guard let victims = plan(index, cost: cost) else { return false }
        evict(victims)
        return true
    }

    /// Removes every entry (statistics are kept).
    mutating func removeAll() {
        entries.removeAll()
        checkpoints.removeAll()
        stats.bytesInUse = 0
        stats.entries = 0
        stats.checkpoints = 0
        stats.checkpointBytes = 0
    }

    /// Counts a decode done to fill the cache.
    mutating func countDecode() {
        stats.framesDecoded += 1
    }

    func cost(of key: Key) -> Int {
        switch key {
        case .frame(let i): return entries[i].map { FrameCache.cost(width: $0.width, height: $0.height) } ?? 0
        case .checkpoint(let i): return checkpoints[i].map { $0.cost + FrameCache.entryOverhead } ?? 0
        }
    }

    /// What to evict so that something at `index` costing `cost` fits,
    /// furthest first; nil if only nearer things could make room. Frames
    /// come before checkpoints: a frame will be shown, a checkpoint only
    /// speeds a seek. So a frame may evict any checkpoint (those first), and
    /// a checkpoint only farther checkpoints.
    func plan(_ index: Int, cost: Int, checkpoint: Bool = false) -> [Key]? {
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

    mutating func evict(_ victims: [Key]) {
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
    mutating func reserveCheckpoint(frame index: Int, cost: Int) -> Bool {
        if checkpoints[index] != nil { return false }
        guard let victims = plan(index, cost: cost + FrameCache.entryOverhead, checkpoint: true) else {
            stats.refusals += 1
            return false
        }
        evict(victims)
        return true
    }

    /// Keeps a checkpoint taken after frame `index`, if it is worth its room.
    @discardableResult
    mutating func insertCheckpoint(_ snapshot: Compositor.Snapshot, frame index: Int) -> Bool {
        if checkpoints[index] != nil { return true }
        let cost = snapshot.cost + FrameCache.entryOverhead
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
        guard let best = checkpoints.keys.filter({ range.contains($0) }).max() else { return nil }
        return (best, checkpoints[best]!)
    }
}
