import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Decode-to-size: quality against Pillow's BOX filter, alpha weighting,
/// odd and 1-pixel sizes.
struct DownsampleTests {
    /// PSNR over premultiplied RGB and alpha: what is seen, so that the
    /// colour of a nearly transparent pixel weighs as little as it shows.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var sum = 0.0
        for p in stride(from: 0, to: a.count, by: 4) {
            let aa = Double(a[p + 3]) / 255
            let ba = Double(b[p + 3]) / 255
            for c in 0..<3 {
                let d = Double(a[p + c]) * aa - Double(b[p + c]) * ba
                sum += d * d
            }
            let d = Double(a[p + 3]) - Double(b[p + 3])
            sum += d * d
        }
        let mse = sum / Double(a.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    static let references = [
        ("webp/lossy-anim-softalpha.webp", 17, "softalpha-17"),
        ("webp/lossless-anim-alpha.webp", 13, "lossless-alpha-13"),
        ("extra/long.gif", 23, "long-23"), ("extra/apng-rgba16.png", 5, "rgba16-5"),
        ("webp/odd-canvas-37x23-lossy.webp", 11, "odd-11"),
    ]

    @Test(arguments: references)
    func matchesPillowBox(_ ref: (String, Int, String)) throws {
        let source = try Fixtures.source(ref.0, options: DecodingOptions(fitIn: PixelSize(width: ref.1, height: ref.1)))
        var scores: [Double] = []
        for i in 0..<min(4, source.frameCount) {
            let want = try Fixtures.source("resize/\(ref.2)/frame-0000\(i).png").frame(at: 0)
            let got = try source.frame(at: i)
            try #require(
                got.width == want.width && got.height == want.height,
                "\(ref.0): \(got.width)x\(got.height), Pillow \(want.width)x\(want.height)")
            scores.append(Self.psnr(got.pixels, want.pixels))
        }
        let mean = scores.reduce(0, +) / Double(scores.count)
        #expect(mean >= 40, "\(ref.0): mean PSNR \(mean) dB against Pillow BOX")
    }

    func shrink(_ pixels: [UInt8], _ w: Int, _ h: Int, to dw: Int, _ dh: Int) -> [UInt8] {
        let d = Downsampler(sourceWidth: w, sourceHeight: h, width: dw, height: dh)
        var out = [UInt8](repeating: 0, count: d.width * d.height * 4)
        pixels.withUnsafeBytes { src in out.withUnsafeMutableBytes { d.run(src, into: $0) } }
        return out
    }

    /// One instance from several threads at once: each result equals the
    /// one computed alone (the sums are per call, nothing is shared).
    @Test func oneInstanceFromManyThreads() async {
        let (w, h) = (301, 187)
        let d = Downsampler(sourceWidth: w, sourceHeight: h, width: 97, height: 61)
        let sources: [[UInt8]] = (0..<8).map { k in
            var rng = RandomAccessTests.SplitMix(state: UInt64(k + 1))
            return (0..<(w * h * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        }
        func shrink(_ px: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 97 * 61 * 4)
            px.withUnsafeBytes { src in out.withUnsafeMutableBytes { d.run(src, into: $0) } }
            return out
        }
        let alone = sources.map(shrink)
        #expect(Set(alone).count == sources.count, "different sources give different thumbnails")
        let wrong = await withTaskGroup(of: Int.self) { group in
            for t in 0..<4 {
                group.addTask {
                    var bad = 0
                    for round in 0..<30 {
                        let k = (t + round) % sources.count
                        if shrink(sources[k]) != alone[k] { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0, "\(wrong) of 120 thumbnails differ when made concurrently")
    }

    @Test func transparentPixelsDoNotDarkenEdges() {
        // Opaque white next to transparent black, 2:1 across the border.
        var px = [UInt8]()
        for _ in 0..<2 { px += [255, 255, 255, 255, 0, 0, 0, 0] }
        let out = shrink(px, 2, 2, to: 1, 1)
        #expect(out == [255, 255, 255, 128])
    }

    @Test func oddSizesKeepAUniformColourExactly() {
        let px = [UInt8]((0..<(7 * 5)).flatMap { _ in [200, 100, 50, 255] as [UInt8] })
        let out = shrink(px, 7, 5, to: 3, 2)
        #expect(out.count == 3 * 2 * 4)
        #expect(stride(from: 0, to: out.count, by: 4).allSatisfy { Array(out[$0..<($0 + 4)]) == [200, 100, 50, 255] })
    }

    @Test func onePixelIsTheAlphaWeightedMean() {
        var rng = RandomAccessTests.SplitMix(state: 3)
        let px = (0..<(37 * 23 * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let out = shrink(px, 37, 23, to: 1, 1)
        var a = 0.0
        var r = 0.0
        var g = 0.0
        var b = 0.0
        for p in stride(from: 0, to: px.count, by: 4) {
            let al = Double(px[p + 3])
            a += al
            r += al * Double(px[p])
            g += al * Double(px[p + 1])
            b += al * Double(px[p + 2])
        }
        let n = Double(37 * 23)
        let want = [r / a, g / a, b / a, a / n].map { Int($0.rounded()) }
        let got = out.map(Int.init)
        #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1 }, "\(got) vs \(want)")
    }

    /// A column wider than the C loop's 32-bit sums allow (66052 opaque
    /// pixels: Σα·c up to 66052·255·255 > 2^32) goes through the loop with
    /// 64-bit sums: the true mean, not a wrapped sum's colour.
    @Test func aColumnTooWideForTheKernelStaysExact() {
        let w = 66052  // ANIM_BOX_MAX_RUN + 1
        var px = [UInt8](repeating: 255, count: w * 2 * 4)
        for x in 0..<(w / 2) { px[4 * x] = 0 }  // half of the first row without red: a quarter of all
        #expect(shrink(px, w, 2, to: 1, 1) == [191, 255, 255, 255])  // 255 · 3/4 = 191.25
    }

    /// Enlarging vertically (4 rows to 10) while shrinking across: each
    /// output row is the row its source row gives, repeated rows equal.
    @Test func enlargingRepeatsTheNearestRow() {
        var rng = RandomAccessTests.SplitMix(state: 5)
        let px = (0..<(6 * 4 * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let tall = shrink(px, 6, 4, to: 3, 10)
        for y in 0..<10 {
            let sy = Int((Double(y) + 0.5) * 4 / 10)  // the source row under the centre
            let row = Array(px[(sy * 24)..<(sy * 24 + 24)])
            let want = shrink(row, 6, 1, to: 3, 1)
            #expect(Array(tall[(y * 12)..<(y * 12 + 12)]) == want, "row \(y) from source row \(sy)")
        }
    }

    /// A mean alpha that rounds to 0 gives transparent black, not a colour
    /// under alpha 0.
    @Test func almostTransparentIsTransparentBlack() {
        let px: [UInt8] = [250, 10, 10, 1] + [UInt8](repeating: 0, count: 12)  // mean alpha 0.25
        #expect(shrink(px, 4, 1, to: 1, 1) == [0, 0, 0, 0])
        let more: [UInt8] = [250, 10, 10, 2] + [UInt8](repeating: 0, count: 12)  // mean 0.5: alpha 1
        #expect(shrink(more, 4, 1, to: 1, 1) == [250, 10, 10, 1])
    }

    @Test func fitKeepsAspectAndNeverEnlarges() {
        #expect(Downsampler.fit(width: 1920, height: 1080, maxWidth: 160, maxHeight: 96) == (160, 90))
        #expect(Downsampler.fit(width: 10, height: 10, maxWidth: 100, maxHeight: 100) == (10, 10))
        #expect(Downsampler.fit(width: 1000, height: 1, maxWidth: 10, maxHeight: 10) == (10, 1))
        #expect(Downsampler.fit(width: 3, height: 1000, maxWidth: 1, maxHeight: 1) == (1, 1))
    }

    @Test func sourceDeliversFramesAtTheOutputSize() throws {
        var options = DecodingOptions()
        options.maxPixelSize = 20
        let source = try Fixtures.source("extra/long.gif", options: options)
        #expect(source.outputWidth == 20 && source.outputHeight == 15)
        #expect(source.width == 64 && source.height == 48)
        let image = try source.frame(at: 5)
        #expect(image.width == 20 && image.height == 15 && image.pixels.count == 20 * 15 * 4)
    }
}

/// The two ways of summing (source rows first in 32 bits, or each row per
/// output column in 64 bits) give the same pixels, bit for bit: random
/// pixels with every kind of alpha, reduced by whole and fractional
/// factors, enlarged along one axis, widths not a multiple of four, and
/// the largest box the 32-bit sums take.
struct DownsamplePathTests {
    static let shapes: [(Int, Int, Int, Int)] = [
        (1280, 720, 640, 360), (1280, 720, 800, 450), (37, 23, 11, 7), (64, 64, 21, 64), (13, 40, 29, 9),
        (5, 5, 1, 1), (181, 181, 1, 1), (3, 7, 2, 3), (100, 3, 33, 1),
    ]

    @Test(arguments: shapes)
    func bothPathsGiveTheSamePixels(_ shape: (Int, Int, Int, Int)) {
        var random = SystemRandomNumberGenerator()
        let (w, h, dw, dh) = shape
        let pixels: [UInt8] = (0..<(w * h)).flatMap { i -> [UInt8] in
            let alpha: UInt8 = [0, 255, 255, 1, 128, UInt8.random(in: 0...255, using: &random)][i % 6]
            return [
                UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                UInt8.random(in: 0...255, using: &random), alpha,
            ]
        }
        func shrink(rowsFirst: Bool) -> [UInt8] {
            let d = Downsampler(sourceWidth: w, sourceHeight: h, width: dw, height: dh, rowsFirst: rowsFirst)
            var out = [UInt8](repeating: 0xA5, count: d.width * d.height * 4)
            pixels.withUnsafeBytes { src in out.withUnsafeMutableBytes { d.run(src, into: $0) } }
            return out
        }
        let fast = shrink(rowsFirst: true)
        let wide = shrink(rowsFirst: false)
        #expect(fast.count == dw * dh * 4)
        let first = zip(fast, wide).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "\(w)×\(h) → \(dw)×\(dh): first difference at byte \(first ?? -1)")
        // Not all transparent black: the sums were written.
        #expect(fast.contains { $0 != 0 })
    }
}
