import AnimTestSupport
import Testing

@testable import AnimKit

/// `PNGFile.encode`: RGBA by default; `.auto` the smallest lossless colour
/// type for the pixels; every one decodes back to the same pixels, with
/// rows of 1, 2, 3 and 4 bytes a pixel through every filter, read the
/// same by libpng and by the fast path.
struct PNGFileColorTests {
    /// `w`×`h` pixels from `pixel(x, y)`.
    static func image(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> RGBAImage {
        RGBAImage.drawn(width: w, height: h, pixel)
    }

    static func noise(_ x: Int, _ y: Int, _ k: Int) -> UInt8 {
        var h = UInt64(x) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(y) &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(k) &* 0x1656_67B1_9E37_79F9
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return UInt8(truncatingIfNeeded: h)
    }

    static let cases: [(String, UInt8, RGBAImage)] = [
        // colour type 0: grey, opaque, more than 256 pixels of 256 levels
        (
            "grey", 0,
            image(67, 9) { x, y in
                let v = noise(x, y, 0)
                return (v, v, v, 255)
            }
        ),
        // 3: at most 256 colours, some transparent
        ("palette", 3, image(33, 17) { x, y in ((UInt8(x % 5) * 50), UInt8(y % 3) * 80, 7, (x + y) % 7 == 0 ? 0 : 255) }),
        // 4: grey with alpha, over 256 combinations
        (
            "grey+alpha", 4,
            image(41, 13) { x, y in
                let v = noise(x, y, 1)
                return (v, v, v, noise(x, y, 2))
            }
        ),
        // 2: RGB, opaque, many colours
        ("rgb", 2, image(29, 23) { x, y in (noise(x, y, 3), noise(x, y, 4), noise(x, y, 5), 255) }),
        // 6: RGBA
        ("rgba", 6, image(31, 19) { x, y in (noise(x, y, 6), noise(x, y, 7), noise(x, y, 8), noise(x, y, 9)) }),
    ]

    @Test(arguments: cases.indices)
    func autoPicksTheSmallestLosslessType(_ k: Int) throws {
        let (name, colorType, image) = Self.cases[k]
        let png = try #require(PNGFile.encode(image, color: .auto))
        #expect(png[25] == colorType, "\(name): colour type \(png[25])")
        #expect(try ImageSource(data: png).frame(at: 0) == image, "\(name) decodes back")
        // libpng reads it the same as the fast path does.
        #expect(FuzzChecks.pngPaths(png).differences.isEmpty, "\(name) through libpng")
        // And RGBA, the default, whatever the pixels.
        let rgba = try #require(PNGFile.encode(image))
        #expect(rgba[25] == 6)
        #expect(try ImageSource(data: rgba).frame(at: 0) == image)
    }

    /// Every filter on rows of 1–4 bytes a pixel (the SSE loops and their
    /// scalar tails: widths around 8 and 16 bytes), as the zlib stream
    /// libpng unfilters.
    @Test(arguments: [nil, 0, 1, 2, 3, 4] as [Int?])
    func everyFilterEveryDepth(_ filter: Int?) throws {
        for channels in 1...4 {
            for width in [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 33] {
                let h = 5
                var rows = [UInt8](repeating: 0, count: width * h * channels)
                for i in rows.indices { rows[i] = Self.noise(i, width, channels) }
                let idat = try #require(
                    rows.withUnsafeBytes {
                        PNGBridge.deflate(
                            pixels: $0, width: width, height: h, channels: channels, level: 1, search: false, filter: filter)
                    })
                let png = PNGFile.assemble(
                    width: width, height: h, colorType: [0, 0, 4, 2, 6][channels], extra: [], idat: idat)
                let check = FuzzChecks.pngPaths(png)
                #expect(check.differences.isEmpty && check.frames == 1, "libpng and the fast path differ: \(check.differences)")
                let back = try ImageSource(data: png).frame(at: 0)
                var expanded = [UInt8](repeating: 0, count: width * h * 4)
                for p in 0..<(width * h) {
                    let s = Array(rows[(p * channels)..<((p + 1) * channels)])
                    expanded[(p * 4)..<(p * 4 + 4)] =
                        channels == 1
                        ? [s[0], s[0], s[0], 255][...]
                        : channels == 2 ? [s[0], s[0], s[0], s[1]][...] : channels == 3 ? [s[0], s[1], s[2], 255][...] : s[...]
                }
                #expect(back.pixels == expanded, "filter \(String(describing: filter)), \(channels) channels, width \(width)")
            }
        }
    }
}
