import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// The GIF writer, checked by decoding what it writes with `ImageSource`:
/// frame counts, delays, loop counts, pixels (exact where a frame has few
/// enough colours, PSNR otherwise), transparency, and file sizes.
struct GIFWriterTests {
    typealias Frame = (image: RGBAImage, duration: Duration)

    // MARK: synthetic animations

    /// A smooth, many-coloured picture that drifts with `t`.
    static func gradient(_ w: Int, _ h: Int, t: Int) -> RGBAImage {
        RGBAImage.drawn(width: w, height: h) { x, y in
            let (fx, fy, ft) = (Double(x), Double(y), Double(t))
            return (
                UInt8(127.5 + 127 * sin(fx / 11 + ft / 4)), UInt8(127.5 + 127 * sin(fy / 9 - ft / 6 + 1)),
                UInt8(127.5 + 127 * sin((fx + fy) / 17 + ft / 5 + 2)), 255
            )
        }
    }

    /// A photograph-like gradient: colour varies smoothly over the picture
    /// (a 2-D sheet through the colour cube, as in skies and skin), drifting with `t`.
    static func photo(_ w: Int, _ h: Int, t: Int) -> RGBAImage {
        RGBAImage.drawn(width: w, height: h) { x, y in
            let u = Double(x) / Double(w - 1)
            let v = Double(y) / Double(h - 1)
            return (
                UInt8(30 + 200 * u), UInt8(60 + 150 * v + 20 * sin(u * 6 + Double(t) / 3)),
                UInt8(127.5 + 100 * sin((u + v) * 3 + Double(t) / 5)), 255
            )
        }
    }

    /// 16 colours: a static striped background (12 colours) and a 4-colour
    /// 8×8 sprite moving 3 pixels a frame. With `transparentBackground`
    /// the background is transparent instead.
    static func sprite(_ w: Int, _ h: Int, t: Int, transparentBackground: Bool = false) -> RGBAImage {
        var image = RGBAImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                guard !transparentBackground else { continue }
                let band = ((x / 5) + (y / 7) * 3) % 12
                image.pixels[i] = UInt8(band * 20)
                image.pixels[i + 1] = UInt8(255 - band * 17)
                image.pixels[i + 2] = UInt8((band * 90) % 256)
                image.pixels[i + 3] = 255
            }
        }
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 255, 0), (255, 0, 255), (0, 255, 255), (250, 250, 250)]
        let sx = (3 * t) % (w - 8)
        let sy = (2 * t) % (h - 8)
        for y in 0..<8 {
            for x in 0..<8 {
                let i = ((sy + y) * w + sx + x) * 4
                let c = palette[(x / 2 + y / 4) % 4]
                image.pixels[i] = c.0
                image.pixels[i + 1] = c.1
                image.pixels[i + 2] = c.2
                image.pixels[i + 3] = 255
            }
        }
        return image
    }

    // MARK: helpers

    static func encode(_ frames: [Frame], _ options: EncodingOptions = EncodingOptions()) throws -> [UInt8] {
        let out = try ImageDestination(format: .gif, options: options)
        for f in frames { try out.add(f.image, duration: f.duration) }
        try out.finish()
        return try #require(out.data)
    }

    static func decode(_ bytes: [UInt8]) throws -> ImageSource {
        try ImageSource(data: bytes, options: DecodingOptions(durationPolicy: .raw))
    }

    /// PSNR over RGB of the pixels opaque in both (∞ when identical).
    static func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        var sum = 0.0
        var n = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) where a.pixels[i + 3] == 255 && b.pixels[i + 3] == 255 {
            for c in 0..<3 {
                let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
                sum += d * d
            }
            n += 3
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / n))
    }

    /// True when every pixel's alpha is transparent (< 128) in the source
    /// exactly where the decoded frame is transparent (0).
    static func sameCoverage(_ source: RGBAImage, _ decoded: RGBAImage) -> Bool {
        stride(from: 3, to: source.pixels.count, by: 4).allSatisfy { i in
            (source.pixels[i] < 128) == (decoded.pixels[i] == 0) && (decoded.pixels[i] == 0 || decoded.pixels[i] == 255)
        }
    }

    static func distinctColors(_ image: RGBAImage) -> Int {
        var set = Set<UInt32>()
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] != 0 {
            set.insert(UInt32(image.pixels[i]) << 16 | UInt32(image.pixels[i + 1]) << 8 | UInt32(image.pixels[i + 2]))
        }
        return set.count
    }

    // MARK: tests

    @Test(arguments: EncodingOptions.Dither.allCases)
    func fewColoursRoundTripExactly(_ dither: EncodingOptions.Dither) throws {
        var options = EncodingOptions()
        options.dither = dither
        let frames: [Frame] = (0..<12).map { t in (Self.sprite(40, 30, t: t), Duration.milliseconds(50)) }
        let source = try Self.decode(try Self.encode(frames, options))
        #expect(source.frameCount == 12)
        for (i, f) in frames.enumerated() {
            let exact = try source.frame(at: i) == f.image  // a Bool, so a failure does not print every pixel
            #expect(exact, "frame \(i) with \(dither) differs")
        }
    }

    static func meanPSNR(_ frames: [Frame], _ options: EncodingOptions) throws -> (psnr: Double, bytes: Int) {
        let bytes = try Self.encode(frames, options)
        let source = try Self.decode(bytes)
        #expect(source.frameCount == frames.count)
        var total = 0.0
        for (i, f) in frames.enumerated() {
            let decoded = try source.frame(at: i)
            let opaque = stride(from: 3, to: decoded.pixels.count, by: 4).allSatisfy { decoded.pixels[$0] == 255 }
            #expect(opaque, "frame \(i) not opaque")
            total += Self.psnr(f.image, decoded)
        }
        return (total / Double(frames.count), bytes.count)
    }

    @Test(arguments: EncodingOptions.Dither.allCases)
    func gradientsKeepHighPSNR(_ dither: EncodingOptions.Dither) throws {
        var options = EncodingOptions()
        options.dither = dither
        let photo = try Self.meanPSNR((0..<6).map { t in (Self.photo(64, 48, t: t), .milliseconds(40)) }, options)
        print("GIFWriter photo gradient, \(dither): \(photo.bytes) bytes, mean PSNR \(photo.psnr) dB")
        #expect(photo.psnr >= 34.5, "photo, \(dither): mean PSNR \(photo.psnr) dB")
        // Three sinusoids in three directions fill the colour cube: hard for
        // any 256-colour palette (ffmpeg palettegen + paletteuse: 30.7 dB
        // undithered, 29.6 dB Floyd–Steinberg on frame 0; Pillow's median cut 30.9).
        let hard = try Self.meanPSNR((0..<6).map { t in (Self.gradient(64, 48, t: t), .milliseconds(40)) }, options)
        print("GIFWriter hard gradient, \(dither): \(hard.bytes) bytes, mean PSNR \(hard.psnr) dB")
        #expect(hard.psnr >= (dither == .none ? 31 : 29.5), "hard, \(dither): mean PSNR \(hard.psnr) dB")
    }

    @Test func fewerColoursWhenAsked() throws {
        var options = EncodingOptions()
        options.maxColors = 16
        options.dither = .none
        let frames = (0..<3).map { t in (Self.gradient(48, 32, t: t), Duration.milliseconds(40)) }
        let source = try Self.decode(try Self.encode(frames, options))
        for i in 0..<3 {
            let n = Self.distinctColors(try source.frame(at: i))
            // Frames after the first draw over it: at most 15 colours each, 2 palettes at most on screen.
            #expect(n <= (i == 0 ? 15 : 31), "frame \(i) shows \(n) colours")
        }
        #expect(Self.distinctColors(try source.frame(at: 0)) >= 8)
    }

    @Test func twoColoursStayTwoColours() throws {
        var options = EncodingOptions()
        options.maxColors = 2
        let frames: [Frame] = (0..<4).map { t in
            var image = RGBAImage(width: 16, height: 16)
            for i in 0..<256 {
                let on = ((i % 16) / (t + 1) + i / 16) % 2 == 0
                image.pixels.replaceSubrange((4 * i)..<(4 * i + 4), with: on ? [255, 255, 255, 255] : [0, 0, 0, 255])
            }
            return (image, .milliseconds(50))
        }
        let source = try Self.decode(try Self.encode(frames, options))
        for (i, f) in frames.enumerated() {
            let exact = try source.frame(at: i) == f.image
            #expect(exact, "frame \(i) differs")
        }
    }

    @Test func durationsAreRoundedWithCarry() throws {
        let third = Duration.microseconds(33_333)
        let frames = (0..<9).map { t in (Self.sprite(24, 16, t: t), third) }
        let source = try Self.decode(try Self.encode(frames))
        let delays = source.frames.map {
            Int($0.delay.components.attoseconds / 10_000_000_000_000_000) + Int($0.delay.components.seconds) * 100
        }
        #expect(delays == [3, 4, 3, 3, 4, 3, 3, 4, 3])
        #expect(delays.reduce(0, +) == 30)
    }

    @Test func shortDurationsBecomeTwoCentiseconds() throws {
        let frames = (0..<4).map { t in (Self.sprite(24, 16, t: t), Duration.milliseconds(t == 0 ? 5 : 60)) }
        let source = try Self.decode(try Self.encode(frames))
        #expect(source.frames.map(\.delay) == [.milliseconds(20), .milliseconds(50), .milliseconds(60), .milliseconds(60)])
    }

    @Test(arguments: [(0, Plays.forever, Optional(0)), (1, .count(1), nil), (3, .count(3), 2)])
    func playsBecomeLoopCounts(_ plays: Int, _ expected: Plays, _ loop: Int?) throws {
        var options = EncodingOptions()
        options.plays = plays
        let frames = (0..<2).map { t in (Self.sprite(24, 16, t: t), Duration.milliseconds(100)) }
        let source = try Self.decode(try Self.encode(frames, options))
        #expect(source.plays == expected)
        #expect(source.loopCount == loop)
    }

    @Test(arguments: EncodingOptions.Dither.allCases)
    func transparencyIsKeptAndCleared(_ dither: EncodingOptions.Dither) throws {
        var options = EncodingOptions()
        options.dither = dither
        // A sprite moving over transparency: what it leaves must be cleared.
        var frames: [Frame] = (0..<8).map { t in
            (Self.sprite(40, 30, t: t, transparentBackground: true), Duration.milliseconds(30))
        }
        // Then a photo with a hole punched in it, and the hole moving.
        for t in 0..<4 {
            var g = Self.gradient(40, 30, t: 0)
            for y in 10..<20 { for x in (5 + 6 * t)..<(15 + 6 * t) { g.pixels[(y * 40 + x) * 4 + 3] = 100 } }
            frames.append((g, .milliseconds(30)))
        }
        let source = try Self.decode(try Self.encode(frames, options))
        #expect(source.frameCount == frames.count)
        for (i, f) in frames.enumerated() {
            let decoded = try source.frame(at: i)
            let coverage = Self.sameCoverage(f.image, decoded)
            let exact = decoded == f.image
            let psnr = Self.psnr(f.image, decoded)
            #expect(coverage, "frame \(i): transparent pixels differ")
            if i < 8 { #expect(exact, "frame \(i) differs") } else { #expect(psnr >= 30, "frame \(i): PSNR \(psnr) dB") }
        }
    }

    @Test func staticAreasDoNotShimmer() throws {
        // A gradient background with a small square moving over it.
        let frames = (0..<6).map { t -> Frame in
            var g = Self.gradient(64, 48, t: 0)
            for y in 20..<26 {
                for x in (4 + 8 * t)..<(10 + 8 * t) {
                    g.pixels.replaceSubrange(((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 3), with: [255, 255, 255])
                }
            }
            return (g, .milliseconds(40))
        }
        let source = try Self.decode(try Self.encode(frames))
        for i in 1..<frames.count {
            let (a, b) = (try source.frame(at: i - 1), try source.frame(at: i))
            var moved = 0
            for p in stride(from: 0, to: a.pixels.count, by: 4)
            where frames[i].image.pixels[p..<(p + 4)] == frames[i - 1].image.pixels[p..<(p + 4)] {
                if a.pixels[p..<(p + 4)] != b.pixels[p..<(p + 4)] { moved += 1 }
            }
            #expect(moved == 0, "frame \(i): \(moved) unchanged pixels shown differently")
            #expect(
                source.frames[i].rect.width * source.frames[i].rect.height <= 14 * 6, "frame \(i) rect \(source.frames[i].rect)")
        }
    }

    @Test func mostlyStaticAnimationIsSmall() throws {
        let background = Self.photo(96, 64, t: 0)
        let single = try Self.encode([(background, .milliseconds(40))])
        var frames: [Frame] = []
        for t in 0..<100 {
            // A 3x3 white cursor crawling one pixel a frame.
            var g = background
            for y in 0..<3 {
                for x in 0..<3 {
                    let i = (((t / 90) * 5 + 30 + y) * 96 + t % 90 + x) * 4
                    g.pixels[i] = 255
                    g.pixels[i + 1] = 255
                    g.pixels[i + 2] = 255
                }
            }
            frames.append((g, .milliseconds(40)))
        }
        let bytes = try Self.encode(frames)
        print("GIFWriter mostly static: one frame \(single.count) bytes, 100 frames \(bytes.count) bytes")
        #expect(bytes.count < single.count + 100 * 64, "100 frames take \(bytes.count) bytes, one takes \(single.count)")
        #expect(bytes.count * 20 < 100 * single.count)
        let source = try Self.decode(bytes)
        #expect(source.frameCount == 100)
        #expect(Self.psnr(frames[99].image, try source.frame(at: 99)) >= 30)
    }

    @Test func veryDifferentFramesGetTheirOwnPalette() throws {
        // A red-dominated picture, then a blue one: the second needs a local palette.
        func tinted(_ t: Int, red: Bool) -> RGBAImage {
            var g = Self.gradient(48, 32, t: t)
            for i in stride(from: 0, to: g.pixels.count, by: 4) {
                if red {
                    g.pixels[i + 1] /= 4
                    g.pixels[i + 2] /= 4
                } else {
                    g.pixels[i] /= 4
                    g.pixels[i + 1] /= 4
                }
            }
            return g
        }
        let frames: [Frame] = [(tinted(0, red: true), .milliseconds(50)), (tinted(3, red: false), .milliseconds(50))]
        let source = try Self.decode(try Self.encode(frames))
        for i in 0..<2 {
            let p = Self.psnr(frames[i].image, try source.frame(at: i))
            #expect(p >= 30, "frame \(i): PSNR \(p) dB")
        }
    }

    @Test func writeErrorsNameTheOutput() throws {
        let out = try ImageDestination(fileDescriptor: -1, name: "<broken>", format: .gif)
        try out.add(Self.sprite(24, 16, t: 0))
        let error = #expect(throws: AnimError.self) {
            try out.add(Self.sprite(24, 16, t: 1))
            try out.finish()
        }
        guard let error, error.code == .io else {
            Issue.record("expected an I/O error, got \(String(describing: error))")
            return
        }
        #expect(error.file == "<broken>")
    }

    @Test func delayClockCarriesAndClamps() {
        var clock = GIFDelayClock()
        let d = [10, 33, 33, 34, 1000].map { clock.delay(for: .milliseconds($0)) }
        #expect(d == [2, 2, 4, 3, 100])  // the 1 cs lent to the 2 cs minimum is taken back at once
        #expect(clock.writtenCentiseconds == 111)
        #expect(GIFWriter.loopValue(plays: 0) == 0 && GIFWriter.loopValue(plays: 1) == nil && GIFWriter.loopValue(plays: 5) == 4)
    }

    /// Later frames drawing a few of a 100-colour global palette (written
    /// with compact local tables when smaller), over transparency and
    /// with pixels cleared: every frame still exact.
    @Test func fewColoursOfALargeGlobalPaletteStayExact() throws {
        var rng = RandomAccessTests.SplitMix(state: 5)
        var colors: [[UInt8]] = []
        for c in 0..<100 {
            let r = UInt8(c * 2)
            let g = UInt8(255 - c)
            let b = UInt8(c * 7 % 256)
            colors.append([r, g, b, 255])
        }
        var canvas = [UInt8](repeating: 0, count: 48 * 40 * 4)
        for i in 0..<(48 * 40) { canvas.replaceSubrange((i * 4)..<(i * 4 + 4), with: colors[Int(rng.next() % 100)]) }
        var frames: [Frame] = [Frame(image: RGBAImage(width: 48, height: 40, trusting: canvas), duration: .milliseconds(50))]
        for t in 1..<12 {
            let x0 = Int(rng.next() % 30)
            let y0 = Int(rng.next() % 25)
            for y in y0..<(y0 + 12) {
                for x in x0..<(x0 + 14) where rng.next() % 3 != 0 {
                    let i = (y * 48 + x) * 4
                    // Mostly 20 colours; on odd frames some pixels cleared.
                    let c: [UInt8] = t % 2 == 1 && rng.next() % 5 == 0 ? [0, 0, 0, 0] : colors[Int(rng.next() % 20) * 3]
                    canvas.replaceSubrange(i..<(i + 4), with: c)
                }
            }
            frames.append(Frame(image: RGBAImage(width: 48, height: 40, trusting: canvas), duration: .milliseconds(50)))
        }
        let source = try Self.decode(try Self.encode(frames))
        #expect(source.frameCount == frames.count)
        for i in 0..<frames.count { #expect(try source.frame(at: i) == frames[i].image, "frame \(i)") }
    }

    /// An animation that starts fully transparent (a fade-in, a blank first
    /// frame) encodes and comes back exactly.
    @Test func aFullyTransparentFirstFrame() throws {
        var frames = [Frame(image: RGBAImage(width: 16, height: 12), duration: .milliseconds(40))]
        var px = [UInt8](repeating: 0, count: 16 * 12 * 4)
        for i in 0..<(16 * 6) { px.replaceSubrange((i * 4)..<(i * 4 + 4), with: [200, 40, 10, 255]) }
        frames.append(Frame(image: RGBAImage(width: 16, height: 12, trusting: px), duration: .milliseconds(40)))
        let source = try Self.decode(try Self.encode(frames))
        #expect(source.frameCount == 2)
        for i in 0..<2 { #expect(try source.frame(at: i) == frames[i].image, "frame \(i)") }
    }
}
