import Testing

@testable import AnimKit

/// Converting only what changed: `ColorTransform.convertChanged` and the
/// `ConvertedCanvas` built on it.
struct ConvertedCanvasTests {
    static func pseudoRandom(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// Pixels equal to the shadow are left as they were in the target;
    /// the others are converted (as `convert` converts them) and copied
    /// into the shadow; on the fast path and through Little CMS alike,
    /// with changed pixels alone, in pairs and in long runs.
    @Test(arguments: [true, false])
    func onlyChangedPixelsAreConverted(fastPath: Bool) throws {
        let p3 = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        let transform = try #require(ColorTransform.toSRGB(from: .icc(p3), fastPath: fastPath).transform)
        #expect(transform.usesFastPath == fastPath)
        let count = 4099
        let input = Self.pseudoRandom(count * 4, seed: 7)
        var shadow = input
        var changed = [Bool](repeating: false, count: count)
        for p in 0..<count where p % 7 == 0 || p % 11 == 1 || (p >= 2000 && p < 2600) || p == count - 1 {
            changed[p] = true
            shadow[p * 4 + (p % 4)] ^= 0x40  // one channel differs (alpha too, every fourth)
        }
        var target = [UInt8](repeating: 0xAB, count: count * 4)
        var expected = input
        input.withUnsafeBytes { i in
            expected.withUnsafeMutableBytes { transform.convert(i.baseAddress!, into: $0.baseAddress!, count: count) }
            shadow.withUnsafeMutableBytes { s in
                target.withUnsafeMutableBytes {
                    transform.convertChanged(i.baseAddress!, shadow: s.baseAddress!, into: $0.baseAddress!, count: count)
                }
            }
        }
        #expect(shadow == input)
        for p in 0..<count {
            let got = Array(target[(p * 4)..<(p * 4 + 4)])
            if changed[p] {
                #expect(got == Array(expected[(p * 4)..<(p * 4 + 4)]), "pixel \(p)")
            } else {
                #expect(got == [0xAB, 0xAB, 0xAB, 0xAB], "pixel \(p) was unchanged")
            }
        }
        #expect(changed.filter { $0 }.count > 900)
    }

    /// A canvas brought up to date frame after frame, with and without a
    /// changed rectangle, and after a change the rectangle did not say
    /// (a seek): always the conversion of the whole canvas.
    @Test func theConvertedCanvasFollowsTheCanvas() throws {
        let p3 = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        let transform = try #require(ColorTransform.toSRGB(from: .icc(p3)).transform)
        let (w, h) = (37, 23)
        let converted = ConvertedCanvas(transform: transform, width: w, height: h)
        var canvas = [UInt8](repeating: 0, count: w * h * 4)
        func check(_ label: String) {
            var whole = canvas
            canvas.withUnsafeBytes { c in
                whole.withUnsafeMutableBytes { transform.convert(c.baseAddress!, into: $0.baseAddress!, count: w * h) }
            }
            #expect(Array(converted.pixels) == whole, "\(label)")
        }
        canvas.withUnsafeBytes { converted.update(from: $0, step: 0, changed: nil) }
        check("transparent")
        canvas = Self.pseudoRandom(w * h * 4, seed: 3)
        canvas.withUnsafeBytes {
            converted.update(from: $0, step: 1, changed: (since: 0, rect: Rect(x: 0, y: 0, width: w, height: h)))
        }
        check("everything changed")
        for y in 5..<9 { for x in 3..<30 { canvas[(y * w + x) * 4] &+= 17 } }
        canvas.withUnsafeBytes {
            converted.update(from: $0, step: 2, changed: (since: 1, rect: Rect(x: 3, y: 5, width: 27, height: 4)))
        }
        check("a rectangle")
        for y in 0..<h { canvas[(y * w + 36) * 4 + 1] &+= 9 }
        // Not continued from step 2: the whole canvas is compared.
        canvas.withUnsafeBytes {
            converted.update(from: $0, step: 7, changed: (since: 4, rect: Rect(x: 0, y: 0, width: 1, height: 1)))
        }
        check("a seek")
    }
}
