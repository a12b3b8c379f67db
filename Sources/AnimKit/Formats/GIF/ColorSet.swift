/// The distinct opaque colours of images, up to a limit: keys as the GIF
/// writer makes them (`0xFFRRGGBB` for alpha ≥ 128; more transparent
/// pixels are not colours). An open-addressed table of 1024 slots with the
/// last colour remembered, so runs cost one compare a pixel.
struct ColorSet {
    let limit: Int
    private(set) var colors: [UInt32] = []
    private var keys = [UInt32](repeating: 0, count: 1024)
    private var used = [Bool](repeating: false, count: 1024)
    /// True once more than `limit` colours were seen.
    private(set) var overflowed = false

    init(limit: Int) { self.limit = min(max(limit, 1), 512) }

    /// Adds the colours of `pixels` (RGBA8); false once past the limit.
    @discardableResult
    mutating func add(_ pixels: UnsafeRawBufferPointer) -> Bool {
        guard !overflowed else { return false }
        let px = pixels.bindMemory(to: UInt32.self)
        var last: UInt32 = 1  // no key has alpha bits 0x01
        for p in px {
            let key = GIFFrameDiff.key(word: p)
            if key == last || key == 0 { continue }
            last = key
            if !insert(key) { return false }
        }
        return true
    }

    /// Adds one key (not 0); false once past the limit.
    @inline(__always)
    mutating func insert(_ key: UInt32) -> Bool {
        var s = Int((key &* 0x9E37_79B1) >> 22)
        while used[s] && keys[s] != key { s = (s + 1) & 1023 }
        if used[s] { return true }
        if colors.count == limit {
            overflowed = true
            return false
        }
        used[s] = true
        keys[s] = key
        colors.append(key)
        return true
    }
}

/// The colours for a GIF's global table (`GlobalTableChoice`): every
/// opaque colour the frames show when they fit `limit`, else the table
/// that saves most local tables, or nil for frame 0's; whether it keeps a
/// transparent entry, and whether every frame is opaque. Decodes each frame
/// once (not past frame 0 when it has more colours than a table).
package enum GIFGlobalTable {
    /// The plan for `count` frames, frame i from `frame(i)`.
    package static func of(count: Int, limit: Int, frame: (Int) throws -> RGBAImage) throws
        -> EncodingOptions.GIF.Prescan
    {
        var choice = GlobalTableChoice(limit: limit)
        for i in 0..<count where choice.worthReading {
            choice.add(try frame(i))
        }
        return choice.plan(frames: count)
    }
}
