import AnimKit
import Testing

/// `PNGFile.encodeQuick` writes PNGs that decode to the same pixels, RGB
/// when opaque and RGBA otherwise, with every filter.
struct PNGQuickTests {
    static func image(_ w: Int, _ h: Int, alpha: Bool, seed: UInt64) -> RGBAImage {
        var rng = FuzzRandom(state: seed)
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) {
            let v = rng.next()
            px[i * 4] = UInt8(truncatingIfNeeded: v); px[i * 4 + 1] = UInt8(i % 256); px[i * 4 + 2] = UInt8(truncatingIfNeeded: v >> 8)
            px[i * 4 + 3] = alpha ? UInt8(truncatingIfNeeded: v >> 16) : 255
        }
        return RGBAImage(width: w, height: h, pixels: px)
    }

    @Test(arguments: [nil, 0, 1, 2, 3, 4] as [Int?])
    func roundTrips(_ filter: Int?) throws {
        for (w, h, alpha) in [(1, 1, false), (37, 11, false), (64, 40, true), (300, 2, true)] {
            let image = Self.image(w, h, alpha: alpha, seed: UInt64(w * h))
            let png = try #require(PNGFile.encodeQuick(image, level: 6, filter: filter))
            #expect(png[25] == (alpha ? 6 : 2), "colour type: RGB when opaque")
            let back = try ImageSource(data: png).frame(at: 0)
            #expect(back == image, "\(w)×\(h) alpha \(alpha) filter \(String(describing: filter))")
        }
    }
}
