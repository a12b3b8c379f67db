import AnimKit
import AnimTestSupport
import Testing

/// `PNGFile.encodeQuick` writes PNGs that decode to the same pixels:
/// palette when there are at most 256 colours, else RGB when opaque and
/// RGBA otherwise, with every filter.
struct PNGQuickTests {
    static func image(_ w: Int, _ h: Int, alpha: Bool, seed: UInt64) -> RGBAImage {
        var rng = FuzzRandom(state: seed)
        return RGBAImage.drawn(width: w, height: h) { x, y in
            let v = rng.next()
            return (
                UInt8(truncatingIfNeeded: v), UInt8((y * w + x) % 256), UInt8(truncatingIfNeeded: v >> 8),
                alpha ? UInt8(truncatingIfNeeded: v >> 16) : 255
            )
        }
    }

    @Test(arguments: [nil, 0, 1, 2, 3, 4] as [Int?])
    func roundTrips(_ filter: Int?) throws {
        for (w, h, alpha) in [(1, 1, false), (37, 11, false), (64, 40, true), (300, 2, true)] {
            let image = Self.image(w, h, alpha: alpha, seed: UInt64(w * h))
            let png = try #require(PNGFile.encodeQuick(image, level: 6, filter: filter, palette: false))
            #expect(png[25] == (alpha ? 6 : 2), "colour type: RGB when opaque")
            let back = try ImageSource(data: png).frame(at: 0)
            #expect(back == image, "\(w)×\(h) alpha \(alpha) filter \(String(describing: filter))")
            // The filter is applied: another one gives other bytes.
            if let filter, w * h > 1 {
                let other = try #require(PNGFile.encodeQuick(image, level: 6, filter: (filter + 1) % 5, palette: false))
                #expect(other != png, "filter \(filter) and \((filter + 1) % 5) wrote the same stream")
            }
        }
    }

    /// Up to 256 colours (alpha included): palette indices with PLTE and,
    /// when some colour is not opaque, tRNS; 257 colours: RGB(A) again.
    @Test(arguments: [1, 2, 200, 256, 257])
    func paletteWhenColoursFit(_ colours: Int) throws {
        for alpha in [false, true] {
            let (w, h) = (53, 29)
            var rng = FuzzRandom(state: UInt64(colours))
            let image = RGBAImage.drawn(width: w, height: h) { x, y in
                // Every colour appears (the first `colours` pixels), then at random.
                let i = y * w + x
                let c = i < colours ? i : Int(rng.next() % UInt64(colours))
                return (UInt8(c & 255), UInt8(c >> 8), UInt8(255 - c % 256), alpha && c % 3 == 0 ? UInt8(c % 256) : 255)
            }
            let png = try #require(PNGFile.encodeQuick(image, level: 6, filter: 4))
            let type = png[25]
            #expect(type == (colours <= 256 ? 3 : alpha ? 6 : 2), "\(colours) colours, alpha \(alpha)")
            let text = String(decoding: png, as: UTF8.self)
            #expect(text.contains("PLTE") == (colours <= 256))
            #expect(text.contains("tRNS") == (colours <= 256 && alpha))
            #expect(try ImageSource(data: png).frame(at: 0) == image, "\(colours) colours, alpha \(alpha)")
        }
    }
}
