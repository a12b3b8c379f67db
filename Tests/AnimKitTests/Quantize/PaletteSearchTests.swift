import AnimTestSupport
import Testing

@testable import AnimKit

/// The two searches for the nearest palette colour: the walk along green
/// and the look at every colour agree on the distance, on palettes of
/// every size up to the scan's limit (the AVX2 loop's eight-colour steps
/// and its tail) and on every kind of query; the scan answers the first
/// colour at that distance, as a plain loop over the palette does.
struct PaletteSearchTests {
    static func bruteForce(_ colors: [UInt32], _ r: Int32, _ g: Int32, _ b: Int32) -> (index: Int, distance: Int32) {
        var best = (index: 0, distance: Int32.max)
        for (i, c) in colors.enumerated() {
            let d = PaletteSearch.distance(
                Int32((c >> 16) & 0xFF), Int32((c >> 8) & 0xFF), Int32(c & 0xFF), r, g, b)
            if d < best.distance { best = (i, d) }
        }
        return best
    }

    @Test(arguments: [1, 2, 7, 8, 9, 31, 64, 100, 255, 256])
    func scanFindsTheFirstNearest(_ count: Int) {
        var rng = FuzzRandom(UInt64(count))
        // A coarse palette (many ties) half the time, any colours the other.
        let coarse = count % 2 == 1
        let colors = (0..<count).map { _ -> UInt32 in
            let v = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
            return coarse ? v & 0xC0_C0C0 : v
        }
        let search = PaletteSearch(colors, cached: true)
        for _ in 0..<2000 {
            let v = rng.next()
            let (r, g, b) = (Int32(v & 0xFF), Int32((v >> 8) & 0xFF), Int32((v >> 16) & 0xFF))
            let want = Self.bruteForce(colors, r, g, b)
            let scanned = search.nearestByScan(r, g, b)
            #expect(scanned.index == want.index && scanned.distance == want.distance, "\(count) colours, (\(r), \(g), \(b))")
            #expect(search.nearest(r, g, b).distance == want.distance)
            let hinted = search.nearestByScan(r, g, b, hint: Int(v >> 32) % count)
            #expect(hinted.distance == want.distance)
        }
    }

    /// Past the limit the walk answers (a 1024-register sixel palette).
    @Test func largePalettesAreWalked() {
        var rng = FuzzRandom(99)
        let colors = (0..<1024).map { _ in UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF }
        let search = PaletteSearch(colors)
        for _ in 0..<500 {
            let v = rng.next()
            let (r, g, b) = (Int32(v & 0xFF), Int32((v >> 8) & 0xFF), Int32((v >> 16) & 0xFF))
            #expect(search.nearestByScan(r, g, b) == search.nearest(r, g, b))
        }
    }
}
