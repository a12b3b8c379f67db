import CColorKernel

/// Nearest palette colour under the quantiser's weighted RGB distance
/// (3·ΔR² + 4·ΔG² + 2·ΔB²: green counts most, blue least, close to how the
/// eye weighs them, while staying near plain RGB error so PSNR is not
/// traded away).
///
/// The colours are sorted by green; a search starts at the target's green
/// and walks both ways until the green difference alone exceeds the best
/// distance, which visits a handful of entries instead of 256. A
/// direct-mapped cache of recent answers serves repeated colours, and a
/// hint (the neighbouring pixel's answer) is taken at once when the target
/// lies within half the distance from the hint to its own nearest neighbour
/// in the palette (then nothing else can be nearer: triangle inequality).
@usableFromInline
final class PaletteSearch {
    @usableFromInline static let weightR: Int32 = 3, weightG: Int32 = 4, weightB: Int32 = 2
    static let weightSum: Int32 = 9

    /// Per entry, sorted by green, `stride` values: red, green, blue, index
    /// in the palette, and a quarter of the squared distance to the nearest
    /// other entry (0 unless made `cached`).
    private let table: UnsafeMutablePointer<Int32>
    private static let stride = 5
    /// Palette index → entry in `table`.
    private let position: UnsafeMutablePointer<Int32>
    private let count: Int
    private let cacheBits = 15
    /// The colours in palette order as three arrays (reds, greens, blues)
    /// for `nearestByScan`.
    private let channels: UnsafeMutablePointer<Int32>
    /// Cache storage (raw pointers: no exclusivity checks in the hot loop).
    private let cacheTags: UnsafeMutablePointer<UInt32>?
    private let cacheValues: UnsafeMutablePointer<UInt16>?

    /// `colors` are `0x??RRGGBB`; answers are indices into it (at most
    /// 65536 colours).
    init(_ colors: [UInt32], cached: Bool = false) {
        precondition(!colors.isEmpty && colors.count <= 1 << 16, "PaletteSearch: no colour, or too many")
        let order = colors.indices.sorted { (colors[$0] >> 8) & 0xFF < (colors[$1] >> 8) & 0xFF }
        count = colors.count
        table = .allocate(capacity: Self.stride * count)
        position = .allocate(capacity: count)
        channels = .allocate(capacity: 3 * count)
        for (j, c) in colors.enumerated() {
            channels[j] = Int32((c >> 16) & 0xFF)
            channels[count + j] = Int32((c >> 8) & 0xFF)
            channels[2 * count + j] = Int32(c & 0xFF)
        }
        for (i, j) in order.enumerated() {
            let c = colors[j]
            (table + Self.stride * i).initialize(
                from: [Int32((c >> 16) & 0xFF), Int32((c >> 8) & 0xFF), Int32(c & 0xFF), Int32(j), 0],
                count: Self.stride)
            position[j] = Int32(i)
        }
        cacheTags = cached ? .allocate(capacity: 1 << cacheBits) : nil
        cacheTags?.initialize(repeating: 0, count: 1 << cacheBits)
        cacheValues = cached ? .allocate(capacity: 1 << cacheBits) : nil
        cacheValues?.initialize(repeating: 0, count: 1 << cacheBits)
        if cached { fillSafeRadii() }
    }

    /// Each entry's quarter squared distance to its nearest other entry.
    private func fillSafeRadii() {
        let s = Self.stride
        for i in 0..<count {
            let a = table + s * i
            var best = Int32.max
            for j in 0..<count where j != i {
                let b = table + s * j
                best = min(best, Self.distance(a[0], a[1], a[2], b[0], b[1], b[2]))
            }
            a[4] = best == .max ? .max : best / 4
        }
    }

    deinit {
        table.deallocate()
        position.deallocate()
        channels.deallocate()
        cacheTags?.deallocate()
        cacheValues?.deallocate()
    }

    /// The weighted squared distance between two colours.
    @inlinable @inline(__always)
    static func distance(_ r0: Int32, _ g0: Int32, _ b0: Int32, _ r1: Int32, _ g1: Int32, _ b1: Int32) -> Int32 {
        let dr = r0 - r1
        let dg = g0 - g1
        let db = b0 - b1
        return weightR * dr * dr + weightG * dg * dg + weightB * db * db
    }

    /// The index of the nearest colour to (red, green, blue), 0–255 each,
    /// through the cache (only when created with `cached`).
    @inline(__always)
    func nearestCached(_ red: Int32, _ green: Int32, _ blue: Int32, hint: Int = -1) -> Int {
        let tag = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) | 0x0100_0000
        guard let tags = cacheTags, let values = cacheValues else { return nearest(red, green, blue, hint: hint).index }
        let slot = Int((tag &* 0x9E37_79B1) >> UInt32(32 - cacheBits))
        if tags[slot] == tag { return Int(values[slot]) }
        let found = nearest(red, green, blue, hint: hint).index
        tags[slot] = tag
        values[slot] = UInt16(truncatingIfNeeded: found)
        return found
    }

    /// `hint` with its distance when nothing else can be nearer (it lies
    /// within half the distance from the hint to its nearest neighbour).
    @inline(__always)
    private func hinted(_ red: Int32, _ green: Int32, _ blue: Int32, hint: Int) -> (index: Int, distance: Int32)? {
        guard hint >= 0 && hint < count else { return nil }
        let e = table + Self.stride * Int(position[hint])
        let d = Self.distance(e[0], e[1], e[2], red, green, blue)
        return d <= e[4] ? (hint, d) : nil
    }

    /// Palettes up to this size are searched by `nearestByScan`'s look at
    /// every colour; larger ones by the walk along green (`nearest`).
    static let scanLimit = 256

    /// The nearest colour's index and its weighted squared distance (the
    /// distance always `nearest`'s), by looking at every colour
    /// (`anim_palette_nearest`, eight at a time) in palettes of at most
    /// `scanLimit`: for colours anywhere in the cube (noise), where the
    /// walk along green visits much of the palette. Of several colours at
    /// that distance, the first in the palette. `hint` as for `nearest`.
    func nearestByScan(_ red: Int32, _ green: Int32, _ blue: Int32, hint: Int = -1) -> (index: Int, distance: Int32) {
        guard count <= Self.scanLimit else { return nearest(red, green, blue, hint: hint) }
        if let taken = hinted(red, green, blue, hint: hint) { return taken }
        var distance: Int32 = 0
        let found = anim_palette_nearest(
            channels, channels + count, channels + 2 * count, Int32(count), red, green, blue, &distance)
        return (Int(found), distance)
    }

    /// The nearest colour's index and its weighted squared distance.
    /// `hint`: a palette index likely to be the answer, or -1.
    func nearest(_ red: Int32, _ green: Int32, _ blue: Int32, hint: Int = -1) -> (index: Int, distance: Int32) {
        let n = count
        let t = table
        let s = Self.stride
        var best = Int32.max
        var bestAt = 0
        if hint >= 0 && hint < n {
            bestAt = Int(position[hint])
            let e = t + s * bestAt
            best = Self.distance(e[0], e[1], e[2], red, green, blue)
            if best <= e[4] { return (hint, best) }
        }
        var lo = 0
        var hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if t[s * mid + 1] < green { lo = mid + 1 } else { hi = mid }
        }
        var up = lo
        var down = lo - 1
        while up < n || down >= 0 {
            if up < n {
                let e = t + s * up
                let dg = e[1] - green
                if Self.weightG * dg * dg >= best {
                    up = n
                } else {
                    let d = Self.distance(e[0], e[1], e[2], red, green, blue)
                    if d < best {
                        best = d
                        bestAt = up
                    }
                    up += 1
                }
            }
            if down >= 0 {
                let e = t + s * down
                let dg = green - e[1]
                if Self.weightG * dg * dg >= best {
                    down = -1
                } else {
                    let d = Self.distance(e[0], e[1], e[2], red, green, blue)
                    if d < best {
                        best = d
                        bestAt = down
                    }
                    down -= 1
                }
            }
        }
        return (Int(t[s * bestAt + 3]), best)
    }
}
