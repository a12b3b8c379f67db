import AnimKit
import AnimTestSupport
import Testing

/// `PNGFile.encodeQuick` writes PNGs that decode to the same pixels:
/// palette when there are at most 256 colours, else RGB when opaque and
/// RGBA otherwise, with every filter.
struct PNGQuickTests {
    static func image(_ w: Int, _ h: Int, alpha: Bool, seed: UInt64) -> RGBAImage {
        var rng = FuzzRandom(state: seed)
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) {
            let v = rng.next()
            px[i * 4] = UInt8(truncatingIfNeeded: v)
            px[i * 4 + 1] = UInt8(i % 256)
            px[i * 4 + 2] = UInt8(truncatingIfNeeded: v >> 8)
            px[i * 4 + 3] = alpha ? UInt8(truncatingIfNeeded: v >> 16) : 255
        }
        return RGBAImage(width: w, height: h, pixels: px)
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
            var px = [UInt8](repeating: 0, count: w * h * 4)
            var rng = FuzzRandom(state: UInt64(colours))
            for i in 0..<(w * h) {
                // Every colour appears (the first `colours` pixels), then at random.
                let c = i < colours ? i : Int(rng.next() % UInt64(colours))
                px[i * 4] = UInt8(c & 255)
                px[i * 4 + 1] = UInt8(c >> 8)
                px[i * 4 + 2] = UInt8(255 - c % 256)
                px[i * 4 + 3] = alpha && c % 3 == 0 ? UInt8(c % 256) : 255
            }
            let image = RGBAImage(width: w, height: h, pixels: px)
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
