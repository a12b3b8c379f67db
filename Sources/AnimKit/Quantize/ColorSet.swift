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
            var s = Int((key &* 0x9E37_79B1) >> 22)
            while used[s] && keys[s] != key { s = (s + 1) & 1023 }
            if used[s] { continue }
            if colors.count == limit {
                overflowed = true
                return false
            }
            used[s] = true
            keys[s] = key
            colors.append(key)
        }
        return true
    }
}

extension ImageSource {
    /// Every opaque colour the frames show (keyed as `ColorSet` keys
    /// them), or nil when there are more than `limit`: decodes every frame
    /// once, with a source of its own. The GIF writer makes them its
    /// global table (`EncodingOptions.globalColors`), so that a GIF whose
    /// frames share a table is written with one table, exactly.
    @_spi(AnimTools) public func colorUnion(limit: Int) throws -> [UInt32]? {
        let scan = try reopened()
        var set = ColorSet(limit: limit)
        for i in 0..<scan.frameCount {
            let ok = try scan.withFrame(at: i) { set.add($0) }
            if !ok { return nil }
        }
        return set.colors
    }
}

/// The colour scan for frames that are not one source's (`anim encode`'s
/// folder of images).
@_spi(AnimTools) public enum ColorUnion {
    /// Every opaque colour of `count` frames, or nil as soon as there are
    /// more than `limit` (frames after that are not read).
    public static func of(count: Int, limit: Int, frame: (Int) throws -> RGBAImage) throws -> [UInt32]? {
        var set = ColorSet(limit: limit)
        for i in 0..<count {
            let image = try frame(i)
            let ok = image.pixels.withUnsafeBytes { set.add($0) }
            if !ok { return nil }
        }
        return set.colors
    }
}
