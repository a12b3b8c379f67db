/// The pixels of an image as indices into the exact set of its colours,
/// when it has at most `limit` (≤ 256) of them: one pass, a small
/// open-addressed table, given up at the first colour too many.
struct ExactPalette {
    /// The colours, as RGBA bytes in memory order read little-endian.
    var colors: [UInt32] = []
    /// One index per pixel.
    var indices: [UInt8] = []

    init?(_ image: RGBAImage, limit: Int = 256) {
        let count = image.width * image.height
        let limit = min(max(limit, 1), 256)  // indices are bytes
        guard count > 0 else { return nil }
        let slotCount = 1024
        let mask = slotCount - 1
        var keys = [UInt32](repeating: 0, count: slotCount)
        var used = [Int16](repeating: -1, count: slotCount)
        var colors: [UInt32] = []
        colors.reserveCapacity(limit)
        var indices = [UInt8](repeating: 0, count: count)
        let complete = image.pixels.withUnsafeBytes { raw -> Bool in
            let px = raw.bindMemory(to: UInt32.self)
            return indices.withUnsafeMutableBufferPointer { out -> Bool in
                var last = px[0] &+ 1
                var lastIndex: UInt8 = 0
                for i in 0..<count {
                    let key = px[i]
                    if key != last {
                        var s = Int((key &* 0x9E37_79B1) >> 22) & mask
                        while used[s] >= 0 && keys[s] != key { s = (s + 1) & mask }
                        if used[s] < 0 {
                            if colors.count == limit { return false }
                            keys[s] = key
                            used[s] = Int16(colors.count)
                            colors.append(key)
                        }
                        last = key
                        lastIndex = UInt8(used[s])
                    }
                    out[i] = lastIndex
                }
                return true
            }
        }
        guard complete else { return nil }
        self.colors = colors
        self.indices = indices
    }
}
