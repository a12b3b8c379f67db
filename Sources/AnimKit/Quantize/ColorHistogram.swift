/// The colours of the pixels a frame draws, for the quantiser: a 5-5-5 bit
/// histogram whose bins keep the sum of their exact colours (so a bin's
/// mean is precise, not the bin's centre), plus the exact set of distinct
/// colours while there are at most `exactLimit` of them (256 for GIF).
///
/// Reused from frame to frame: `reset()` clears only the bins touched.
/// Storage is raw memory, so the per-pixel loop pays no exclusivity or
/// uniqueness checks.
final class ColorHistogram {
    static let binCount = 1 << 15
    /// Distinct colours tracked exactly: 256 by default (GIF's palette
    /// size), up to 1024 for sixel's colour registers.
    let exactLimit: Int
    /// Slots of the exact set's hash table: a power of two, at least four
    /// times `exactLimit`.
    private let slotCount: Int
    private let slotShift: UInt32

    /// Per bin: pixel count, then the sums of red, green and blue.
    private let bins: UnsafeMutablePointer<Int>
    private let exactSlots: UnsafeMutablePointer<UInt32>
    /// Bins with at least one pixel, in the order first seen.
    private(set) var touched: [Int32] = []
    /// Pixels added.
    private(set) var total = 0
    /// The distinct colours (keys), while there are at most `exactLimit`.
    private(set) var distinct: [UInt32] = []
    /// True once more than `exactLimit` distinct colours were seen.
    private(set) var overflowed = false

    init(exactLimit: Int = 256) {
        self.exactLimit = max(exactLimit, 1)
        var bits = 2
        while 1 << bits < 4 * self.exactLimit { bits += 1 }
        slotCount = 1 << bits
        slotShift = UInt32(32 - bits)
        bins = .allocate(capacity: 4 * Self.binCount)
        bins.initialize(repeating: 0, count: 4 * Self.binCount)
        exactSlots = .allocate(capacity: slotCount)
        exactSlots.initialize(repeating: 0, count: slotCount)
    }

    deinit {
        bins.deallocate()
        exactSlots.deallocate()
    }

    func reset() {
        for bin in touched { (bins + 4 * Int(bin)).update(repeating: 0, count: 4) }
        touched.removeAll(keepingCapacity: true)
        total = 0
        if !distinct.isEmpty || overflowed { exactSlots.update(repeating: 0, count: slotCount) }
        distinct.removeAll(keepingCapacity: true)
        overflowed = false
    }

    /// Counts the pixels of `rect` whose key differs from the reference
    /// (the pixels the frame draws; they are opaque, see `GIFWriter`).
    func addChanged(_ keys: UnsafeBufferPointer<UInt32>, reference: UnsafeBufferPointer<UInt32>, width: Int, rect: Rect) {
        var added = 0
        var exact = !overflowed
        for y in rect.y..<(rect.y + rect.height) {
            for i in (y * width + rect.x)..<(y * width + rect.x + rect.width) where keys[i] != reference[i] {
                let key = keys[i]
                bin(key)
                added += 1
                if exact { exact = noteExact(key) }
            }
        }
        total += added
    }

    /// Counts every pixel of `keys` except the transparent ones (key 0).
    func add(_ keys: UnsafeBufferPointer<UInt32>) {
        var added = 0
        var exact = !overflowed
        var last: UInt32 = 0
        for key in keys where key != 0 {
            bin(key)
            added += 1
            // A run of one colour is noted once.
            if exact && key != last {
                exact = noteExact(key)
                last = key
            }
        }
        total += added
    }

    /// Counts `key` in its 5-bit-per-channel bin, with its channel sums.
    @inline(__always)
    private func bin(_ key: UInt32) {
        let high: UInt32 = (key >> 9) & 0x7C00
        let middle: UInt32 = (key >> 6) & 0x3E0
        let low: UInt32 = (key >> 3) & 0x1F
        let bin = Int(high | middle | low)
        let b = bins + 4 * bin
        if b[0] == 0 { touched.append(Int32(bin)) }
        b[0] += 1
        b[1] += Int((key >> 16) & 0xFF)
        b[2] += Int((key >> 8) & 0xFF)
        b[3] += Int(key & 0xFF)
    }

    /// Adds `key` to the exact set; false once there are too many colours.
    private func noteExact(_ key: UInt32) -> Bool {
        var s = Int((key &* 0x9E37_79B1) >> slotShift)
        while true {
            let k = exactSlots[s]
            if k == key { return true }
            if k == 0 { break }
            s = (s + 1) & (slotCount - 1)
        }
        if distinct.count == exactLimit {
            overflowed = true
            return false
        }
        exactSlots[s] = key
        distinct.append(key)
        return true
    }

    /// The mean colour and weight of each non-empty bin.
    func entries() -> [Quantizer.Entry] {
        touched.map { bin in
            let b = bins + 4 * Int(bin)
            let n = Float(b[0])
            return Quantizer.Entry(r: Float(b[1]) / n, g: Float(b[2]) / n, b: Float(b[3]) / n, w: n)
        }
    }
}
