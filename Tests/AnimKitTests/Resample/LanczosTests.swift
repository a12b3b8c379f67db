import AnimTestSupport
import Testing

@testable import AnimKit

/// The Lanczos filter (`--filter lanczos`, the default for edits) against
/// Pillow's `Image.LANCZOS` resizing the same frames to the same sizes
/// (Tools/fixtures/make-resize-references.sh): shrinking by 1.2 to 3 times,
/// odd sizes, soft alpha, and enlarging 2.5 times.
struct LanczosTests {
    static let references = [
        ("extra/long.gif", 21, 16, "long-21x16"),
        ("webp/lossy-anim-softalpha.webp", 40, 25, "softalpha-40x25"),
        ("webp/odd-canvas-37x23-lossy.webp", 12, 7, "odd-12x7"),
        ("extra/mixed.gif", 50, 40, "mixed-50x40"),
        ("extra/apng-rgba16.png", 7, 5, "rgba16-7x5"),
    ]

    @Test(arguments: references)
    func matchesPillowLanczos(_ ref: (String, Int, Int, String)) throws {
        var options = DecodingOptions()
        options.colorManagement = .none  // as the references were extracted
        let source = try Fixtures.source(ref.0, options: options)
        let reshaper = try FrameReshaper(
            FrameGeometry(size: .resize(width: ref.1, height: ref.2), filter: .lanczos), width: source.width,
            height: source.height)
        var scores: [Double] = []
        for i in 0..<min(4, source.frameCount) {
            let want = try Fixtures.source("resize/lanczos/\(ref.3)/frame-0000\(i).png").frame(at: 0)
            let got = reshaper.apply(try source.frame(at: i))
            try #require(got.width == ref.1 && got.height == ref.2 && want.width == ref.1 && want.height == ref.2)
            scores.append(DownsampleTests.psnr(got.pixels, want.pixels))
        }
        let mean = scores.reduce(0, +) / Double(scores.count)
        #expect(mean >= 50, "\(ref.0): mean PSNR \(mean) dB against Pillow LANCZOS")
        // And it is not the box filter: that one differs more from Pillow's Lanczos.
        let box = try FrameReshaper(
            FrameGeometry(size: .resize(width: ref.1, height: ref.2), filter: .box), width: source.width, height: source.height)
        let want = try Fixtures.source("resize/lanczos/\(ref.3)/frame-00000.png").frame(at: 0)
        #expect(DownsampleTests.psnr(box.apply(try source.frame(at: 0)).pixels, want.pixels) < scores[0])
    }

    /// Weights along an axis sum to 1, and the kernel is Lanczos-3.
    @Test func weights() {
        #expect(LanczosResampler.lanczos(0) == 1)
        #expect(abs(LanczosResampler.lanczos(1)) < 1e-12 && LanczosResampler.lanczos(3) == 0)
        let axis = LanczosResampler.axis(from: 1920, to: 480)
        #expect(axis.taps == 25)
        for i in [0, 1, 240, 479] {
            let sum = axis.weights[(i * axis.taps)..<((i + 1) * axis.taps)].reduce(0, +)
            #expect(abs(sum - 1) < 1e-5, "pixel \(i): \(sum)")
        }
    }

    /// A flat colour stays that colour, whatever the scale (no ringing on
    /// flat areas); fully transparent pixels stay transparent black.
    @Test func flatColourAndTransparency() {
        var image = RGBAImage(width: 37, height: 23)
        for p in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[p..<(p + 4)] = [200, 30, 90, 255] }
        for (w, h) in [(11, 7), (80, 50), (36, 23)] {
            let r = LanczosResampler(sourceWidth: 37, sourceHeight: 23, width: w, height: h)
            var out = [UInt8](repeating: 0, count: w * h * 4)
            image.pixels.withUnsafeBytes { s in out.withUnsafeMutableBytes { r.run(s, into: $0) } }
            #expect(stride(from: 0, to: out.count, by: 4).allSatisfy { Array(out[$0..<($0 + 4)]) == [200, 30, 90, 255] })
        }
        let clear = RGBAImage(width: 10, height: 10)
        let r = LanczosResampler(sourceWidth: 10, sourceHeight: 10, width: 3, height: 3)
        var out = [UInt8](repeating: 7, count: 36)
        clear.pixels.withUnsafeBytes { s in out.withUnsafeMutableBytes { r.run(s, into: $0) } }
        #expect(out.allSatisfy { $0 == 0 })
    }
}
