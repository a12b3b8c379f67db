import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// 256 colours: the OKLab mapping against the old sRGB one, measured in
/// CIELAB (another perceptual space, so the test is not the mapping's own
/// yardstick); one-colour cells; the dither.
struct PaletteTests {
    typealias Random = TextTestSupport.Random

    /// A sky: deep blue at the top to a pale, slightly warm haze at the
    /// horizon, warmer towards the sun on the right.
    static func sky(_ w: Int, _ h: Int) -> RGBAImage {
        RGBAImage.drawn(width: w, height: h) { x, y in
            let t = Double(y) / Double(h - 1)
            let s = Double(x) / Double(w - 1)
            return (UInt8(40 + 170 * t * t + 25 * s * t), UInt8(90 + 125 * t + 10 * s * t), UInt8(185 + 55 * t - 15 * s * t), 255)
        }
    }

    struct Errors {
        /// Mean |ΔL*|, |Δa*|, |Δb*|.
        var lab: [Double]
        var deltaE76: Double, deltaE2000: Double
        /// Mean sRGB difference per channel.
        var rgb: Double
        var perChannel: Double { lab.reduce(0, +) / 3 }

        var text: String {
            lab.map(PaletteTests.format).joined(separator: " ")
                + ", ΔE76 \(PaletteTests.format(deltaE76)), ΔE00 \(PaletteTests.format(deltaE2000)), sRGB \(PaletteTests.format(rgb))"
        }
    }

    /// How far `image` mapped by `map` is from itself.
    static func errors(_ image: RGBAImage, _ map: (UInt8, UInt8, UInt8) -> UInt8) -> Errors {
        var e = Errors(lab: [0, 0, 0], deltaE76: 0, deltaE2000: 0, rgb: 0)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                let (r, g, b) = XtermPalette.rgb(map(p.r, p.g, p.b))
                let a = CIELab(Int(p.r), Int(p.g), Int(p.b))
                let m = CIELab(Int(r), Int(g), Int(b))
                e.lab[0] += abs(a.l - m.l)
                e.lab[1] += abs(a.a - m.a)
                e.lab[2] += abs(a.b - m.b)
                e.deltaE76 += a.deltaE76(m)
                e.deltaE2000 += a.deltaE2000(m)
                e.rgb += Double(abs(Int(p.r) - Int(r)) + abs(Int(p.g) - Int(g)) + abs(Int(p.b) - Int(b))) / 3
            }
        }
        let n = Double(image.width * image.height)
        return Errors(lab: e.lab.map { $0 / n }, deltaE76: e.deltaE76 / n, deltaE2000: e.deltaE2000 / n, rgb: e.rgb / n)
    }

    static func format(_ v: Double) -> String { String(Double(Int((v * 100).rounded())) / 100) }

    @Test func theYardstick() {
        // Sharma, Wu and Dalal's test pairs 1, 7 and 17.
        let pairs: [((Double, Double, Double), (Double, Double, Double), Double)] = [
            ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
            ((50, 0, 0), (50, -1, 2), 2.3669),
            ((50, 2.5, 0), (73, 25, -18), 27.1492),
        ]
        for (a, b, e) in pairs {
            #expect(abs(CIELab(l: a.0, a: a.1, b: a.2).deltaE2000(CIELab(l: b.0, a: b.1, b: b.2)) - e) < 0.0001)
        }
    }

    @Test func theSkyLooksRight() {
        let image = Self.sky(160, 96)
        let old = Self.errors(image, XtermPalette.rgbIndex)
        let new = Self.errors(image, XtermPalette.index)
        print("sky in 256 colours, mean |ΔL*| |Δa*| |Δb*|: sRGB mapping \(old.text); OKLab mapping \(new.text)")
        #expect(new.deltaE2000 < old.deltaE2000 * 0.85, "ΔE00 \(new.deltaE2000) against \(old.deltaE2000)")
        #expect(new.deltaE76 < old.deltaE76 * 0.9, "ΔE76 \(new.deltaE76) against \(old.deltaE76)")
        #expect(new.perChannel < old.perChannel * 0.9, "per channel: \(new.lab) against \(old.lab)")
        // Random colours too, less so.
        var rng = Random(4)
        let random = TextTestSupport.noise(100, 40, &rng)
        let oldRandom = Self.errors(random, XtermPalette.rgbIndex)
        let newRandom = Self.errors(random, XtermPalette.index)
        print("random colours: sRGB mapping \(oldRandom.text); OKLab mapping \(newRandom.text)")
        #expect(newRandom.deltaE2000 < oldRandom.deltaE2000 * 0.92)
        // The grid maps every sub-pixel the same way.
        let grid = CellGrid(image: image, background: .none, mode: .palette256)
        let shown = TextTestSupport.subpixels(grid.cells, columns: grid.columns, rows: grid.rows, .half)
        let expected = (0..<(160 * 96)).map { i -> TerminalColor in
            let p = image.pixel(x: i % 160, y: i / 160)
            let (r, g, b) = XtermPalette.rgb(XtermPalette.index(p.r, p.g, p.b))
            return .rgb(r, g, b)
        }
        #expect(shown == expected)
    }

    /// The 32K table against the search over all 240 entries, on random
    /// colours: how often they differ, and what it costs in CIEDE2000.
    @Test func theTableAgreesWithTheSearch() {
        let palette = (16...255).map { i -> OKLab in
            let (r, g, b) = XtermPalette.rgb(UInt8(i))
            return OKLab(r, g, b)
        }
        func difference(_ c: (UInt8, UInt8, UInt8), _ i: Int) -> Double {
            let (r, g, b) = XtermPalette.rgb(UInt8(i))
            return CIELab(Int(c.0), Int(c.1), Int(c.2)).deltaE2000(CIELab(Int(r), Int(g), Int(b)))
        }
        var rng = Random(17)
        var differ = 0
        var table = 0.0
        var search = 0.0
        let n = 20000
        for _ in 0..<n {
            let c = (rng.byte(), rng.byte(), rng.byte())
            let lab = OKLab(c.0, c.1, c.2)
            let best = 16 + palette.indices.min { lab.distance2(palette[$0]) < lab.distance2(palette[$1]) }!
            let got = Int(XtermPalette.index(c.0, c.1, c.2))
            if got != best { differ += 1 }
            table += difference(c, got)
            search += difference(c, best)
        }
        print(
            "5-bit table against the full search: \(differ) of \(n) colours differ; mean ΔE00 \(Self.format(table / Double(n))) against \(Self.format(search / Double(n)))"
        )
        #expect(differ * 100 < n * 15)
        #expect(table < search * 1.03)
        for i in 16...255 {
            let (r, g, b) = XtermPalette.rgb(UInt8(i))
            #expect(
                XtermPalette.index(r, g, b) == UInt8(i) && XtermPalette.rgbIndex(r, g, b) == UInt8(i), "entry \(i) maps to itself"
            )
        }
    }
}
