import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Frames converted to sRGB as browsers convert them, on the fixtures of
/// `Tools/fixtures/make-color-fixtures.py` (8×8, the same 64 colours in
/// every file, frame 2 shifted by one pixel), checked against Little CMS's
/// own `transicc` (p3-expected.txt) and against a conversion computed
/// here from the primaries and curves alone.
struct ColorManagementTests {
    /// The 64 colours, in the generator's order.
    static let colours: [[Double]] = {
        var out: [[Double]] = []
        for r in [0.0, 80, 170, 255] {
            for g in [0.0, 60, 200, 255] { for b in [0.0, 128, 230, 255] { out.append([r, g, b]) } }
        }
        return out
    }()

    static let p3: [Double] = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]
    static let sRGBPrimaries: [Double] = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]

    /// RGB (linear) to XYZ for white and primaries given as x, y pairs.
    static func toXYZ(_ c: [Double]) -> [[Double]] {
        var xyz: [[Double]] = []
        for k in stride(from: 0, to: 8, by: 2) {
            let x: Double = c[k]
            let y: Double = c[k + 1]
            xyz.append([x / y, 1, (1 - x - y) / y])
        }
        let white = xyz[0]
        var m: [[Double]] = []
        for row in 0..<3 { m.append([xyz[1][row], xyz[2][row], xyz[3][row]]) }
        let s = multiply(invert(m), white)
        return m.map { row in (0..<3).map { row[$0] * s[$0] } }
    }

    static func invert(_ m: [[Double]]) -> [[Double]] {
        let (a, b, c, d, e, f, g, h, i) = (m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [
            [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
        ]
    }

    static func multiply(_ m: [[Double]], _ v: [Double]) -> [Double] {
        m.map { $0[0] * v[0] + $0[1] * v[1] + $0[2] * v[2] }
    }

    static func sRGBDecode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func sRGBEncode(_ v: Double) -> Double {
        let c = min(max(v, 0), 1)
        return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    /// A colour of primaries `from` and decoding curve `decode`, in sRGB.
    static func convert(_ rgb: [Double], from primaries: [Double], decode: (Double) -> Double) -> [Double] {
        let linear = rgb.map { decode($0 / 255) }
        let out = multiply(invert(toXYZ(sRGBPrimaries)), multiply(toXYZ(primaries), linear))
        return out.map { (sRGBEncode($0) * 255).rounded() }
    }

    /// Frame 0's pixels of `name`, as RGB.
    static func pixels(_ name: String, _ management: ColorManagement = .sRGB, frame: Int = 0) throws -> [[Double]] {
        var options = DecodingOptions()
        options.colorManagement = management
        let image = try Fixtures.source("color/" + name, options: options).frame(at: frame)
        return (0..<64).map { p in (0..<3).map { Double(image.pixels[p * 4 + $0]) } }
    }

    static func farthest(_ a: [[Double]], _ b: [[Double]]) -> Double {
        zip(a, b).map { zip($0, $1).map { abs($0 - $1) }.max()! }.max()!
    }

    static let transicc: [[Double]] = {
        let text = (try? String(contentsOf: Fixtures.url("color/p3-expected.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.split(separator: " ").map { Double($0)! } }
    }()

    /// A translucent frame blended OVER another in a file with a profile is
    /// converted once composited, as Chromium 156 shows it: `COLOR=1
    /// python3 Tools/browser/check.py Tests/AnimKitTests/Fixtures/color/p3-over.png`
    /// says "same (2 frames, largest channel difference 1)" (and 80 with
    /// anim's `--no-color-management`). Converting each frame before
    /// blending, the order the issue read in Chromium's source, gives
    /// colours up to 60 levels away on this file.
    @Test func aTranslucentFrameIsConvertedOnceComposited() throws {
        let got = try Self.pixels("p3-over.png", frame: 1)
        let stored = try Self.pixels("p3-over.png", .none, frame: 1)
        let after = stored.map { Self.convert($0, from: Self.p3, decode: Self.sRGBDecode) }
        #expect(Self.farthest(got, after) <= 2, "converted once composited")
        // Each frame converted, then blended: frame 2 is the colours
        // reversed at alpha 128 over frame 1's.
        let first = Self.colours.map { Self.convert($0, from: Self.p3, decode: Self.sRGBDecode) }
        let before = (0..<64).map { p in
            let top = Self.convert(Self.colours[63 - p], from: Self.p3, decode: Self.sRGBDecode)
            return (0..<3).map { ((top[$0] * 128 + first[p][$0] * 127) / 255).rounded() }
        }
        #expect(Self.farthest(got, before) >= 20, "the other order is far: the file tells them apart")
    }

    @Test(arguments: ["p3.png", "p3.webp", "p3.gif"])
    func aDisplayP3ProfileIsConvertedToSRGB(_ name: String) throws {
        let got = try Self.pixels(name)
        #expect(Self.transicc.count == 64)
        #expect(Self.farthest(got, Self.transicc) <= 1, "against transicc")
        let computed = Self.colours.map { Self.convert($0, from: Self.p3, decode: Self.sRGBDecode) }
        #expect(Self.farthest(got, computed) <= 2, "against the primaries")
        #expect(Self.farthest(got, Self.colours) >= 20, "P3's red is far outside sRGB's")
        // The second frame is converted the same way (shifted by a pixel).
        let second = try Self.pixels(name, frame: 1)
        #expect(Self.farthest(Array(second[0..<63]), Array(got[1..<64])) == 0)
        let source = try Fixtures.source("color/" + name)
        #expect(source.colorConversion?.description.hasPrefix("ICC profile") == true)
    }

    @Test(arguments: ["p3.png", "p3.webp", "p3.gif", "linear.png", "p3-gama.png"])
    func noColorManagementGivesTheStoredValues(_ name: String) throws {
        #expect(try Self.pixels(name, .none) == Self.colours)
        var options = DecodingOptions()
        options.colorManagement = .none
        #expect(try Fixtures.source("color/" + name, options: options).colorConversion == nil)
    }

    @Test func gammaWithoutChromaticitiesUsesTheSRGBPrimaries() throws {
        // gAMA 1.0: the stored values are linear light.
        let expected = Self.colours.map { $0.map { (Self.sRGBEncode($0 / 255) * 255).rounded() } }
        #expect(Self.farthest(try Self.pixels("linear.png"), expected) <= 1)
        #expect(try Fixtures.source("color/linear.png").colorConversion == .gamma(1.0, chromaticities: false))
    }

    @Test func gammaAndChromaticitiesMakeTheColourSpace() throws {
        let expected = Self.colours.map { Self.convert($0, from: Self.p3, decode: { pow($0, 1 / 0.45455) }) }
        #expect(Self.farthest(try Self.pixels("p3-gama.png"), expected) <= 2)
    }

    @Test(arguments: ["srgb-wins.png", "srgb-icc.png"])
    func sRGBIsLeftAsItIs(_ name: String) throws {
        #expect(try Self.pixels(name) == Self.colours)
        let source = try Fixtures.source("color/" + name)
        #expect(source.colorConversion == nil && source.warnings.isEmpty)
    }

    @Test func aDamagedProfileIsIgnoredWithAWarning() throws {
        #expect(try Self.pixels("bad-icc.png") == Self.colours)
        let source = try Fixtures.source("color/bad-icc.png")
        #expect(source.colorConversion == nil)
        #expect(source.warnings.contains { $0 as? ColorProblem == .damagedProfile(bytes: 200) }, "\(source.warnings)")
    }

    /// A converted source written with its profile writes the stored values
    /// (the profile still applies to them); without the profile, the
    /// converted ones.
    @Test func aTranscodeKeepsValuesAndProfileTogether() throws {
        var none = DecodingOptions()
        none.colorManagement = .none
        for name in ["p3.png", "p3.webp"] {
            let source = try Fixtures.source("color/" + name)
            let kept = try Transcoder(source, format: .apng).write(to: .memory).data!
            let stripped = try Transcoder(source, format: .apng, keepingMetadata: false).write(to: .memory).data!
            #expect(
                try ImageSource(data: kept, options: none).frame(at: 0)
                    == Fixtures.source("color/" + name, options: none).frame(at: 0))
            #expect(try ImageSource(data: kept).frame(at: 0) == source.frame(at: 0), "\(name): shown the same")
            #expect(try ImageSource(data: stripped, options: none).frame(at: 0) == source.frame(at: 0))
            #expect(try ImageSource(data: stripped).colorConversion == nil)
        }
    }

    /// Frames are converted once composited, as Chromium converts them:
    /// APNG suite 023 blends translucent red frames over an opaque red one
    /// under `gAMA` 0.00045, so every stored red below 255 converts to 0
    /// (Chromium 156 shows black from frame 1 on); converting each frame
    /// before blending would leave half the first frame's red (127).
    @Test func framesAreConvertedOnceComposited() throws {
        let converted = try Fixtures.source("apng-suite/023.png").frame(at: 1).pixel(x: 0, y: 0)
        var none = DecodingOptions()
        none.colorManagement = .none
        let stored = try Fixtures.source("apng-suite/023.png", options: none).frame(at: 1).pixel(x: 0, y: 0)
        #expect([converted.r, converted.g, converted.b, converted.a] == [0, 0, 0, 255])
        #expect([stored.r, stored.g, stored.b, stored.a] == [242, 0, 0, 255])
    }

    /// The matrix-shaper fast path is taken for Display P3 and PNG gamma
    /// profiles and gives Little CMS's own values within 1 on 65536
    /// pseudo-random colours (seeded), alpha kept.
    @Test func theFastPathGivesLittleCMSsValues() throws {
        let p3 = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        let colours: [EmbeddedColor] = [
            .icc(p3), .gamma(1 / 2.2, chromaticities: nil), .gamma(1.0, chromaticities: Self.p3),
            .gamma(0.45455, chromaticities: nil),
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let input: [UInt8] = (0..<(65536 * 4)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for colour in colours {
            let transform = try #require(ColorTransform.toSRGB(from: colour).transform, "\(colour)")
            #expect(transform.usesFastPath, "\(colour)")
            var fast = input
            var reference = input
            input.withUnsafeBytes { i in
                fast.withUnsafeMutableBytes { transform.convert(i.baseAddress!, into: $0.baseAddress!, count: 65536) }
                reference.withUnsafeMutableBytes {
                    transform.convertWithLittleCMS(i.baseAddress!, into: $0.baseAddress!, count: 65536)
                }
            }
            let worst = zip(fast, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(colour): off by \(worst)")
            #expect(stride(from: 3, to: fast.count, by: 4).allSatisfy { fast[$0] == input[$0] })
            #expect(fast != input)
            // Runs of equal pixels (each taking the result of the one
            // before it), converted in place, with alpha changing alone.
            var runs = input.enumerated().map {
                $0.offset % 4 == 3 ? UInt8($0.offset / 16 % 2 * 255) : input[$0.offset / 64 * 64 + $0.offset % 4]
            }
            let runsReference = runs.withUnsafeBytes { i in
                var r = runs
                r.withUnsafeMutableBytes { transform.convertWithLittleCMS(i.baseAddress!, into: $0.baseAddress!, count: 65536) }
                return r
            }
            runs.withUnsafeMutableBytes { transform.convert($0.baseAddress!, into: $0.baseAddress!, count: 65536) }
            #expect(zip(runs, runsReference).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(colour): runs")
        }
    }

    /// Read in order, a frame's conversion is redone only where the canvas
    /// changed: frames written with small moving patches and a Display P3
    /// profile (APNG, WebP and GIF) read in order, seeking back and again
    /// in order equal each frame read alone from a new source.
    @Test(arguments: [OutputFormat.apng, .webp, .gif])
    func framesReadInOrderEqualFramesReadAlone(_ format: OutputFormat) throws {
        var options = EncodingOptions()
        options.lossless = true
        let profile: [UInt8] = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        options.metadata.iccProfile = profile
        let out = try ImageDestination(format: format, options: options)
        var image = RGBAImage(width: 40, height: 30)
        for p in 0..<(40 * 30) { image.pixels.replaceSubrange((p * 4)..<(p * 4 + 4), with: [200, UInt8(p % 251), 40, 255]) }
        for f in 0..<8 {
            for y in (f * 3)..<(f * 3 + 5) {
                for x in (f * 4)..<(f * 4 + 6) {
                    image.pixels.replaceSubrange(((y * 40 + x) * 4)..<((y * 40 + x) * 4 + 4), with: [255, 0, UInt8(f * 30), 255])
                }
            }
            try out.add(image, duration: .milliseconds(100))
        }
        try out.finish()
        let data = try #require(out.data)
        let inOrder = try ImageSource(data: data)
        #expect(inOrder.colorConversion != nil)
        #expect(inOrder.frameCount == 8)
        let order = Array(0..<8) + [2, 3, 4, 7, 0, 1]
        for i in order {
            let alone = try ImageSource(data: data).frame(at: i)
            #expect(try inOrder.frame(at: i) == alone, "frame \(i)")
        }
        var none = DecodingOptions()
        none.colorManagement = .none
        #expect(try ImageSource(data: data, options: none).frame(at: 7) != inOrder.frame(at: 7))
    }
}
