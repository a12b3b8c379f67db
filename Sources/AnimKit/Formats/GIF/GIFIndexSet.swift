/// A set of palette indices 0–255 (which entries a frame uses).
struct GIFIndexSet {
    private var words = SIMD4<UInt64>()

    init() {}

    init(_ indices: UnsafeBufferPointer<UInt8>) {
        for i in indices { insert(Int(i)) }
    }

    func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }

    mutating func insert(_ i: Int) { words[i >> 6] |= 1 << UInt64(i & 63) }

    mutating func remove(_ i: Int) { words[i >> 6] &= ~(1 << UInt64(i & 63)) }

    /// The largest index in the set, or nil when it is empty.
    var largest: Int? {
        for k in stride(from: 3, through: 0, by: -1) where words[k] != 0 {
            return k * 64 + 63 - words[k].leadingZeroBitCount
        }
        return nil
    }

    /// The indices in the set, in increasing order.
    var elements: [Int] { (0..<256).filter(contains) }
}

/// The order of a global colour table that lets the most frames use only
/// its first entries (and so shorter LZW codes: a frame using indices up
/// to 15 is coded with 5-bit codes at first, one reaching 255 with 9-bit
/// ones), as gifsicle orders its global table: the colour that frames
/// still fitting in the table need least goes last, and every frame
/// needing it stops counting; repeat. A frame counts for `weights`: alike,
/// as in gifsicle, or for the bits narrower codes would save it (a
/// 40-code frame gains far less than a 400-code one).
enum GIFPaletteOrder {
    /// New positions for entries `first..<first + count`: `result[i]` is
    /// the new index of entry `first + i`. `needs` holds the entries each
    /// frame uses (entries outside the range are ignored), `weights` what
    /// fitting in the first entries is worth to it.
    static func positions(first: Int, count: Int, needs: [GIFIndexSet], weights: [Double]) -> [Int] {
        var penalty = [Double](repeating: 0, count: count)
        var counting = [Bool](repeating: true, count: needs.count)
        let members = needs.map { $0.elements.filter { $0 >= first && $0 < first + count }.map { $0 - first } }
        for (f, m) in members.enumerated() { for c in m { penalty[c] += weights[f] } }
        var remaining = Array(0..<count)
        var position = [Int](repeating: 0, count: count)
        // Entries with frames by index, so that removing one visits only its frames.
        var frames = [[Int]](repeating: [], count: count)
        for (f, m) in members.enumerated() { for c in m { frames[c].append(f) } }
        for slot in stride(from: count - 1, through: 0, by: -1) {
            // The least needed entry goes last; ties keep the old order.
            var pick = 0
            for k in 1..<remaining.count {
                let a = remaining[k]
                let b = remaining[pick]
                if penalty[a] < penalty[b] || (penalty[a] == penalty[b] && a > b) { pick = k }
            }
            let removed = remaining.remove(at: pick)
            position[removed] = first + slot
            for f in frames[removed] where counting[f] {
                counting[f] = false
                for c in members[f] { penalty[c] -= weights[f] }
            }
            if remaining.isEmpty { break }
        }
        return position
    }
}

extension GIFPaletteOrder {
    /// The bits a frame of `bytes` bytes saves when its minimum code size
    /// is 4 instead of 8 (see `saved`).
    static func weight(bytes: Int) -> Double { Double(saved(bytes: bytes, from: 8, to: 4)) }

    /// The bits a frame of `bytes` bytes of LZW data saves (negative: costs)
    /// when its minimum code size goes from `old` to `new`: its codes are
    /// counted from its size at `old` (widths growing with the table),
    /// then the width of each is compared.
    static func saved(bytes: Int, from old: Int, to new: Int) -> Int {
        guard old != new else { return 0 }
        var bits = 0
        var saved = 0
        var code = 0
        while bits < 8 * bytes && code < 4096 {
            let before = width(next: (1 << old) + 2 + code, minimum: old)
            bits += before
            saved += before - width(next: (1 << new) + 2 + code, minimum: new)
            code += 1
        }
        return saved
    }

    /// The width of the code emitted when the table's next entry is `next`.
    private static func width(next: Int, minimum: Int) -> Int {
        guard next < 4096 else { return 12 }
        var w = minimum + 1
        while 1 << w < next { w += 1 }
        return w
    }
}
