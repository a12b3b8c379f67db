import AnimTestSupport
import Glibc
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

    /// Runs of one colour (whole vectors of it, and runs that start and
    /// end inside them) convert as each pixel alone does, through
    /// `convert` and `convertChanged` alike.
    @Test func runsOfOneColourConvertAsSinglePixels() throws {
        let p3 = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        let transform = try #require(ColorTransform.toSRGB(from: .icc(p3)).transform)
        let noise = Self.pseudoRandom(4096 * 4, seed: 11)
        let count = 4001
        // Run lengths 1...40, each run one colour of the noise.
        var input: [UInt8] = []
        var run = 0
        while input.count < count * 4 {
            let colour = Array(noise[(run * 4)..<(run * 4 + 4)])
            for _ in 0..<(1 + run % 40) where input.count < count * 4 { input += colour }
            run += 1
        }
        var single = input
        single.withUnsafeMutableBytes { b in
            for p in 0..<count { transform.convert(b.baseAddress! + p * 4, into: b.baseAddress! + p * 4, count: 1) }
        }
        var whole = input
        whole.withUnsafeMutableBytes { transform.convert($0.baseAddress!, into: $0.baseAddress!, count: count) }
        #expect(whole == single)
        var changed = [UInt8](repeating: 0, count: count * 4)
        var shadow = [UInt8](repeating: 0, count: count * 4)
        input.withUnsafeBytes { i in
            shadow.withUnsafeMutableBytes { s in
                changed.withUnsafeMutableBytes {
                    transform.convertChanged(i.baseAddress!, shadow: s.baseAddress!, into: $0.baseAddress!, count: count)
                }
            }
        }
        // (Pixels equal to the zeroed shadow keep the zeroed target.)
        for p in 0..<count where input[(p * 4)..<(p * 4 + 4)].contains(where: { $0 != 0 }) {
            #expect(changed[(p * 4)..<(p * 4 + 4)] == single[(p * 4)..<(p * 4 + 4)], "pixel \(p)")
        }
        #expect(whole != input)
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

    /// Decoded ahead, a colour-managed file's replacing steps are converted
    /// on the decoding thread: frames large enough to be handed over (a
    /// whole new canvas, then a large replaced rectangle, then a small
    /// patch), read in order with decode-ahead, equal the frames decoded
    /// on one thread and each frame read alone.
    @Test(arguments: [OutputFormat.apng, .webp])
    func framesDecodedAheadAreConvertedAlike(_ format: OutputFormat) throws {
        var options = EncodingOptions()
        options.lossless = true
        let profile: [UInt8] = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        options.metadata.iccProfile = profile
        let out = try ImageDestination(format: format, options: options)
        let (w, h) = (200, 120)
        var image = RGBAImage(width: w, height: h)
        for f in 0..<9 {
            for y in 0..<h {
                for x in 0..<w {
                    let whole = f % 3 == 0
                    let large = f % 3 == 1 && x >= 10 && x < 190 && y >= 5 && y < 115
                    let small = f % 3 == 2 && x >= f * 3 && x < f * 3 + 8 && y >= 4 && y < 10
                    guard whole || large || small else { continue }
                    let alpha: UInt8 = x < 20 ? 128 : 255
                    image.pixels.replaceSubrange(
                        ((y * w + x) * 4)..<((y * w + x) * 4 + 4),
                        with: [UInt8((x * 7 + f * 40) % 256), UInt8((y * 5 + f) % 256), UInt8(f * 25), alpha])
                }
            }
            try out.add(image, duration: .milliseconds(100))
        }
        try out.finish()
        let data = try #require(out.data)
        var ahead = DecodingOptions()
        ahead.decodeAhead = 2
        var inline = DecodingOptions()
        inline.decodeAhead = 0
        let aheadSource = try ImageSource(data: data, options: ahead)
        let inlineSource = try ImageSource(data: data, options: inline)
        #expect(aheadSource.frameCount == 9)
        for i in 0..<9 {
            let frame = try aheadSource.frame(at: i)
            #expect(frame == (try inlineSource.frame(at: i)), "frame \(i)")
            #expect(frame == (try ImageSource(data: data, options: inline).frame(at: i)), "frame \(i) alone")
            // Time for the workers: on a busy machine a step they have not
            // started is taken back and decoded inline (DecodeAheadTests).
            usleep(50_000)
        }
        #expect(aheadSource.stepCounts.convertedAhead >= 4, "\(aheadSource.stepCounts.convertedAhead) converted ahead")
        #expect(inlineSource.stepCounts.convertedAhead == 0)
        var none = DecodingOptions()
        none.colorManagement = .none
        #expect(try ImageSource(data: data, options: none).frame(at: 4) != aheadSource.frame(at: 4))
    }

    /// A rectangle less a hole: the parts cover every pixel of the
    /// rectangle outside the hole, once.
    @Test func aRectangleLessAHole() {
        let r = Rect(x: 2, y: 3, width: 10, height: 8)
        for hole in [
            Rect(x: 4, y: 5, width: 3, height: 2), Rect(x: 0, y: 0, width: 5, height: 20), r,
            Rect(x: 30, y: 3, width: 2, height: 2),
        ] {
            var count = [Int](repeating: 0, count: 20 * 20)
            for p in ConvertedCanvas.parts(of: r, outside: hole) {
                for y in p.y..<(p.y + p.height) { for x in p.x..<(p.x + p.width) { count[y * 20 + x] += 1 } }
            }
            for y in 0..<20 {
                for x in 0..<20 {
                    let inR = x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
                    let inHole = x >= hole.x && x < hole.x + hole.width && y >= hole.y && y < hole.y + hole.height
                    #expect(count[y * 20 + x] == (inR && !inHole ? 1 : 0), "\(hole) at \(x),\(y)")
                }
            }
        }
    }
}
