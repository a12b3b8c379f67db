import AnimTestSupport
import CWebP
import Foundation
import Testing

@testable import AnimKit

/// The WebP writer: round trips through `ImageDestination` and our
/// `ImageSource`, checked against libwebp's own `WebPAnimDecoder` and tools.
struct WebPWriterTests {
    // MARK: - Helpers

    /// A reproducible generator (the suite's SplitMix64).
    typealias Random = RandomAccessTests.SplitMix

    static func image(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> RGBAImage {
        var p = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let (r, g, b, a) = pixel(x, y)
                let i = (y * w + x) * 4
                p[i] = r
                p[i + 1] = g
                p[i + 2] = b
                p[i + 3] = a
            }
        }
        return RGBAImage(width: w, height: h, trusting: p)
    }

    /// Random colours; alpha random too when `alpha`, with the colour under
    /// fully transparent pixels never pure white (see `transparentWhite...`).
    static func noise(_ w: Int, _ h: Int, seed: UInt64, alpha: Bool) -> RGBAImage {
        var rng = Random(state: seed)
        return image(w, h) { _, _ in
            let r = rng.byte()
            let g = rng.byte()
            let b = rng.byte()
            var a: UInt8 = 255
            if alpha {
                switch rng.next() % 4 {
                case 0: a = 0
                case 1: a = 255
                default: a = rng.byte()
                }
            }
            return a == 0 && r == 255 && g == 255 && b == 255 ? (254, g, b, a) : (r, g, b, a)
        }
    }

    /// `base` with a `size`-square of `colour` at (x, y).
    static func stamp(
        _ base: RGBAImage, x: Int, y: Int, size: Int,
        colour: (UInt8, UInt8, UInt8, UInt8)
    ) -> RGBAImage {
        var out = base
        for yy in y..<min(y + size, base.height) {
            for xx in x..<min(x + size, base.width) {
                let i = (yy * base.width + xx) * 4
                out.pixels[i] = colour.0
                out.pixels[i + 1] = colour.1
                out.pixels[i + 2] = colour.2
                out.pixels[i + 3] = colour.3
            }
        }
        return out
    }

    /// A smooth, opaque colour gradient shifted by `phase`.
    static func gradient(_ w: Int, _ h: Int, phase: Double) -> RGBAImage {
        image(w, h) { x, y in
            let fx = Double(x) / Double(w - 1)
            let fy = Double(y) / Double(h - 1)
            let r = 127.5 + 127.5 * sin(2 * Double.pi * (fx + phase))
            let g = 255 * fy
            let b = 127.5 + 127.5 * cos(Double.pi * (fx + fy) + phase)
            return (UInt8(r.rounded()), UInt8(g.rounded()), UInt8(b.rounded()), 255)
        }
    }

    static func encode(_ frames: [(RGBAImage, Duration)], options: EncodingOptions) throws -> [UInt8] {
        let out = try ImageDestination(format: .webp, options: options)
        for (image, duration) in frames { try out.add(image, duration: duration) }
        try out.finish()
        return try #require(out.data)
    }

    static func decode(_ bytes: [UInt8]) throws -> ImageSource {
        let source = try ImageSource(data: bytes, name: "written.webp", options: DecodingOptions(durationPolicy: .raw))
        #expect(source.format == .webp)
        #expect(source.indexError == nil)
        return source
    }

    /// Lossless, the colour under transparent pixels kept (bit-exact tests).
    static func lossless(plays: Int = 0) -> EncodingOptions {
        var o = EncodingOptions()
        o.lossless = true
        o.keepHiddenColors = true
        o.plays = plays
        return o
    }

    /// The four-character codes of the image chunks (VP8, VP8L, ALPH) in
    /// each ANMF frame of a WebP file, or of the still image.
    static func frameChunks(_ b: [UInt8]) -> [[String]] {
        func fourcc(_ at: Int) -> String { String(decoding: b[at..<(at + 4)], as: UTF8.self) }
        func size(_ at: Int) -> Int {
            Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
        }
        func chunks(_ from: Int, _ to: Int) -> [(String, Int, Int)] {
            var out: [(String, Int, Int)] = []
            var at = from
            while at + 8 <= to {
                let n = size(at + 4)
                out.append((fourcc(at), at + 8, n))
                at += 8 + n + (n & 1)
            }
            return out
        }
        guard b.count >= 12, fourcc(0) == "RIFF", fourcc(8) == "WEBP" else { return [] }
        let top = chunks(12, b.count)
        let anmf = top.filter { $0.0 == "ANMF" }
        if anmf.isEmpty { return [top.map(\.0).filter { $0 != "VP8X" }] }
        return anmf.map { a in chunks(a.1 + 16, a.1 + a.2).map(\.0) }
    }

    static func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        var se = 0.0
        var n = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
                se += d * d
                n += 1
            }
        }
        return se == 0 ? .infinity : 10 * log10(255 * 255 / (se / n))
    }

    // MARK: - Lossless

    @Test(arguments: [0, 1, 3, 65535])
    func losslessRoundTripIsBitExact(plays: Int) throws {
        let w = 37
        let h = 23  // odd sizes: sub-rectangles snap to even offsets
        let opaque = Self.noise(w, h, seed: 1, alpha: false)
        let frames: [(RGBAImage, Duration)] = [
            (Self.noise(w, h, seed: 2, alpha: true), .milliseconds(20)),  // mixed alpha everywhere
            (Self.stamp(opaque, x: 5, y: 3, size: 7, colour: (9, 8, 7, 0)), .milliseconds(40)),
            (opaque, .milliseconds(70)),
            (Self.stamp(opaque, x: 30, y: 17, size: 9, colour: (200, 100, 50, 128)), .milliseconds(33)),
            (Self.image(w, h) { x, _ in (UInt8(x), 20, 30, 0) }, .milliseconds(250)),  // all transparent, colour kept
            (Self.image(w, h) { x, y in (UInt8(x * 6), UInt8(y * 11), 77, UInt8(1 + (x + y) % 254)) }, .seconds(2)),
            (Self.noise(w, h, seed: 3, alpha: true), .milliseconds(1000)),
        ]
        let bytes = try Self.encode(frames, options: Self.lossless(plays: plays))
        #expect(Self.frameChunks(bytes).allSatisfy { !$0.contains("VP8 ") })
        let source = try Self.decode(bytes)
        #expect(source.width == w && source.height == h)
        try #require(source.frameCount == frames.count)
        for (i, (expected, duration)) in frames.enumerated() {
            let got = try source.frame(at: i)
            let diff = zip(got.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(diff == 0, "frame \(i): \(diff) bytes differ")
            #expect(source.frames[i].delay == duration, "frame \(i)")
        }
        #expect(source.loopCount == plays)
        #expect(source.plays == (plays == 0 ? .forever : .count(plays)))

        // libwebp's own decoder agrees: same canvases, same end timestamps.
        let oracle = try #require(WebPOracleTests.oracle(bytes))
        #expect(oracle.loop == plays)
        #expect(oracle.frames == frames.map(\.0.pixels))
        var end = 0
        #expect(
            oracle.timestamps
                == frames.map {
                    end +=
                        Int($0.1.components.seconds) * 1000
                        + Int($0.1.components.attoseconds / 1_000_000_000_000_000)
                    return end
                })
    }

    /// `effort` 7 turns on libwebp's size search: never bigger, the same
    /// pixels; outside 0–9 it is refused.
    @Test func effortSearchesForASmallerFile() throws {
        // extra/long.gif: 120 small frames, where libwebp's search pays
        // (18,884 -> 18,334 bytes when measured).
        let source = try Fixtures.source("extra/long.gif")
        let frames = try (0..<source.frameCount).map { try source.frame(at: $0) }
        func encode(_ effort: Int) throws -> [UInt8] {
            var o = EncodingOptions()
            o.lossless = true
            o.effort = effort
            return try ImageDestination.encode(frames, as: .webp, options: o, duration: .milliseconds(40))
        }
        let (plain, searched) = (try encode(5), try encode(7))
        #expect(searched.count < plain.count, "\(searched.count) vs \(plain.count): the search found nothing smaller")
        let back = try ImageSource(data: searched)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i]) }
        var bad = EncodingOptions()
        bad.effort = 10
        #expect(throws: AnimError.self) { _ = try ImageDestination(format: .webp, options: bad) }
    }

    @Test func singleFrameIsAStillImage() throws {
        let frame = Self.noise(16, 9, seed: 4, alpha: true)
        let bytes = try Self.encode([(frame, .milliseconds(500))], options: Self.lossless())
        let source = try Self.decode(bytes)
        #expect(source.frameCount == 1)
        #expect(try source.frame(at: 0) == frame)
        #expect(source.loopCount == nil)  // libwebp writes one frame without ANIM
    }

    /// libwebp's encoder takes an empty or disposed canvas to be transparent
    /// white, decoders take it to be transparent black: fully transparent
    /// white pixels may come back black. Nothing else may change.
    @Test func transparentWhiteMayBecomeTransparentBlack() throws {
        let w = 20
        let h = 12
        let frame0 = Self.image(w, h) { x, y in
            (5...14).contains(x) && (3...8).contains(y) ? (UInt8(x * 10), UInt8(y * 20), 90, 255) : (255, 255, 255, 0)
        }
        let frame1 = Self.stamp(frame0, x: 0, y: 0, size: 4, colour: (1, 2, 3, 255))
        let bytes = try Self.encode([(frame0, .milliseconds(50)), (frame1, .milliseconds(50))], options: Self.lossless())
        let source = try Self.decode(bytes)
        for (i, expected) in [frame0, frame1].enumerated() {
            let got = try source.frame(at: i)
            for p in stride(from: 0, to: got.pixels.count, by: 4) {
                let e = Array(expected.pixels[p..<(p + 4)])
                let g = Array(got.pixels[p..<(p + 4)])
                #expect(e == g || (e == [255, 255, 255, 0] && g == [0, 0, 0, 0]), "frame \(i) pixel \(p / 4): \(e) → \(g)")
            }
        }
    }

    // MARK: - Timing

    @Test func subMillisecondDurationsDoNotDrift() throws {
        let third = Duration(secondsComponent: 0, attosecondsComponent: 33_333_333_333_333_333)  // 1/30 s, to the attosecond
        let base = Self.noise(8, 8, seed: 5, alpha: false)
        let frames = (0..<30).map { i in (Self.stamp(base, x: i % 8, y: i / 8 % 8, size: 1, colour: (0, 0, 0, 255)), third) }
        let source = try Self.decode(try Self.encode(frames, options: Self.lossless()))
        try #require(source.frameCount == 30)
        let delays = source.frames.map { $0.delay }
        #expect(delays.reduce(Duration.zero, +) == .seconds(1))
        // Each frame starts at its exact start time rounded: 0, 33, 67, 100, …
        for i in 0..<30 {
            let start = (i * 1000 + 15) / 30
            let end = ((i + 1) * 1000 + 15) / 30
            #expect(delays[i] == .milliseconds(end - start), "frame \(i)")
        }
        // Short delays are stored as given (the browser policy is the reader's business).
        let short = try Self.decode(
            try Self.encode(
                [
                    (base, .milliseconds(5)), (frames[1].0, .milliseconds(0)),
                    (frames[2].0, .milliseconds(1)),
                ], options: Self.lossless()))
        #expect(short.frames.map { $0.delay } == [Duration.milliseconds(5), .zero, .milliseconds(1)])
    }

    /// Frames longer than libwebp's 2^24 ms and a total past 2^31 ms: the
    /// encoder splits long frames with 1x1 transparent frames; the canvases
    /// and their total times are kept.
    @Test func veryLongDurationsAreSplitNotLost() throws {
        let hour = Duration.seconds(3600)
        let a = Self.noise(4, 4, seed: 6, alpha: false)
        let b = Self.noise(4, 4, seed: 7, alpha: false)
        let c = Self.noise(4, 4, seed: 8, alpha: false)
        let d = Self.noise(4, 4, seed: 9, alpha: false)
        let frames: [(RGBAImage, Duration)] = [(a, hour * 5), (b, hour * 24 * 20), (c, .seconds(1)), (d, hour * 24 * 5)]
        let bytes = try Self.encode(frames, options: Self.lossless())
        let source = try Self.decode(bytes)
        #expect(source.frameCount > frames.count)
        // Consecutive equal canvases make one input frame.
        var runs: [(RGBAImage, Duration)] = []
        for i in 0..<source.frameCount {
            let image = try source.frame(at: i)
            if let last = runs.last, last.0 == image {
                runs[runs.count - 1].1 += source.frames[i].delay
            } else {
                runs.append((image, source.frames[i].delay))
            }
        }
        try #require(runs.count == frames.count)
        for (got, want) in zip(runs, frames) {
            #expect(got.0 == want.0)
            #expect(got.1 == want.1)
        }
    }

    @Test func negativeOrEndlessDurationsAreRefused() throws {
        let f = Self.noise(4, 4, seed: 10, alpha: false)
        let out = try ImageDestination(format: .webp, options: Self.lossless())
        try out.add(f, duration: .milliseconds(-5))
        #expect { try out.finish() } throws: { error in
            error as? AnimError == AnimError(file: "<memory>", frame: 0, EncodingProblem.negativeDuration(.milliseconds(-5)))
        }
        let out2 = try ImageDestination(format: .webp)
        try out2.add(f, duration: .seconds(86_400 * 30))
        #expect { try out2.finish() } throws: { error in
            error as? AnimError
                == AnimError(file: "<memory>", WebPProblem.frameDuration(frame: 0, duration: .seconds(86_400 * 30)))
        }
    }

    // MARK: - Lossy

    @Test func lossyQuality75KeepsGradientsAbove30dB() throws {
        var options = EncodingOptions()
        options.quality = 75
        let frames = (0..<8).map { (Self.gradient(96, 64, phase: Double($0) / 8), Duration.milliseconds(40)) }
        let bytes = try Self.encode(frames, options: options)
        #expect(Self.frameChunks(bytes).allSatisfy { $0.contains("VP8 ") && !$0.contains("VP8L") })
        let source = try Self.decode(bytes)
        try #require(source.frameCount == frames.count)
        var worst = Double.infinity
        for (i, (expected, _)) in frames.enumerated() {
            let got = try source.frame(at: i)
            #expect(got.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }, "frame \(i) stays opaque")
            worst = min(worst, Self.psnr(got, expected))
        }
        #expect(worst >= 30, "worst PSNR \(worst) dB")
        // Lower quality, smaller file; quality is not ignored.
        options.quality = 10
        let small = try Self.encode(frames, options: options)
        #expect(small.count < bytes.count)
        print(
            "WebPWriter lossy q75: \(bytes.count) bytes, worst PSNR \(String(format: "%.2f", worst)) dB; q10: \(small.count) bytes"
        )
    }

    // MARK: - Size

    @Test func mostlyStaticAnimationIsFarSmallerThanItsFrames() throws {
        let base = Self.noise(96, 96, seed: 11, alpha: false)
        let frames = (0..<100).map { i in
            (Self.stamp(base, x: 10 + i % 50, y: 10 + i / 50 * 10, size: 8, colour: (255, 0, 0, 255)), Duration.milliseconds(40))
        }
        let single = try Self.encode([frames[0]], options: Self.lossless())
        let all = try Self.encode(frames, options: Self.lossless())
        print("WebPWriter 96x96 noise, 100 frames lossless: \(all.count) bytes; one frame \(single.count) bytes")
        #expect(all.count < single.count * 5)
        let source = try Self.decode(all)
        try #require(source.frameCount == 100)
        for i in [0, 1, 50, 99] { #expect(try source.frame(at: i) == frames[i].0, "frame \(i)") }
        // Later frames are sub-rectangles, not whole canvases.
        #expect(source.frames[1...].allSatisfy { $0.rect.width * $0.rect.height < 96 * 96 / 4 })
    }

    // MARK: - Merging

    @Test(arguments: [true, false])
    func identicalFramesAreMerged(byDestination: Bool) throws {
        let a = Self.noise(10, 10, seed: 12, alpha: true)
        let b = Self.noise(10, 10, seed: 13, alpha: true)
        var options = Self.lossless()
        options.mergeIdenticalFrames = byDestination
        let out = try ImageDestination(format: .webp, options: options)
        for (f, ms) in [(a, 40), (a, 60), (b, 50), (b, 30), (a, 20)] { try out.add(f, duration: .milliseconds(ms)) }
        try out.finish()
        #expect(out.framesAdded == 5)
        #expect(out.framesWritten == (byDestination ? 3 : 5))
        // libwebp merges unchanged frames itself too: the file is the same.
        let source = try Self.decode(try #require(out.data))
        try #require(source.frameCount == 3)
        #expect(source.frames.map(\.delay) == [.milliseconds(100), .milliseconds(80), .milliseconds(20)])
        #expect(try source.frame(at: 0) == a && source.frame(at: 1) == b && source.frame(at: 2) == a)
    }

    // MARK: - Options

    @Test(arguments: [0, 1, 2, 5])
    func keyframeInterval(_ interval: Int) throws {
        let base = Self.noise(32, 32, seed: 14, alpha: false)
        let frames = (0..<20).map { i in
            (Self.stamp(base, x: i, y: i, size: 4, colour: (0, 255, 0, 255)), Duration.milliseconds(30))
        }
        var options = Self.lossless()
        options.keyframeInterval = interval
        let source = try Self.decode(try Self.encode(frames, options: options))
        try #require(source.frameCount == 20)
        for i in 0..<20 { #expect(try source.frame(at: i) == frames[i].0, "frame \(i)") }
        let keys = source.frames.filter(\.isKeyframe).map(\.index)
        #expect(keys.first == 0)
        switch interval {
        case 0: #expect(keys == [0])  // libwebp's default: no keyframe insertion
        case 1: #expect(keys == Array(0..<20))
        default:
            let gaps = zip(keys.dropFirst(), keys).map { $0 - $1 }
            #expect(
                keys.count > 1 && gaps.allSatisfy { $0 <= interval } && 19 - keys.last! < interval,
                "keyframes \(keys)")
        }
    }

    @Test func allowMixedChoosesPerFrame() throws {
        let flat = Self.image(64, 64) { x, y in (x + y) % 16 < 8 ? (255, 255, 0, 255) : (0, 0, 128, 255) }
        let smooth = Self.gradient(64, 64, phase: 0.3)
        let frames: [(RGBAImage, Duration)] = [
            (flat, .milliseconds(100)), (smooth, .milliseconds(100)),
            (flat, .milliseconds(100)),
        ]
        var options = EncodingOptions()
        options.allowMixed = true
        let mixed = try Self.encode(frames, options: options)
        let kinds = Self.frameChunks(mixed)
        #expect(kinds.count == 3)
        #expect(kinds.contains { $0.contains("VP8L") }, "\(kinds)")
        #expect(kinds.contains { $0.contains("VP8 ") }, "\(kinds)")
        let source = try Self.decode(mixed)
        #expect(try source.frame(at: 0) == flat)  // the 2-colour frame went lossless
        #expect(Self.psnr(try source.frame(at: 1), smooth) >= 30)
        // Without it, a lossy file has lossy frames only.
        let lossy = try Self.encode(frames, options: EncodingOptions())
        #expect(Self.frameChunks(lossy).allSatisfy { !$0.contains("VP8L") }, "\(Self.frameChunks(lossy))")
    }

    // MARK: - Errors

    @Test func libwebpErrorsNameTheOutputAndFrame() throws {
        let sink = OutputSink(memoryNamed: "t.webp")
        let writer = try WebPWriter(sink: sink, width: 4, height: 4, options: Self.lossless())
        try writer.add(Self.noise(4, 4, seed: 15, alpha: false), duration: .milliseconds(10), index: 0)
        #expect { try writer.add(Self.noise(5, 4, seed: 16, alpha: false), duration: .milliseconds(10), index: 1) } throws: {
            error in
            guard let error = error as? AnimError, let failure = error.problem as? LibraryFailure else { return false }
            return error.file == "t.webp" && error.frame == 1 && failure.library == "libwebp"
                && failure.message.contains("Invalid frame dimensions")
        }
        let empty = try WebPWriter(sink: OutputSink(memoryNamed: "e.webp"), width: 4, height: 4, options: EncodingOptions())
        #expect(throws: AnimError.self) { try empty.finish() }
    }

    @Test func badOptionsAreRefusedUpFront() throws {
        let f = Self.noise(4, 4, seed: 17, alpha: false)
        func refused(_ change: (inout EncodingOptions) -> Void, _ image: RGBAImage? = nil) -> String? {
            var o = EncodingOptions()
            change(&o)
            do {
                let out = try ImageDestination(format: .webp, options: o)
                try out.add(image ?? f)
                try out.finish()
                return nil
            } catch let error as AnimError where error.code == .unsupported {
                return error.file == "<memory>" ? "\(error.problem)" : "wrong file \(error.file)"
            } catch { return "\(error)" }
        }
        #expect(refused { $0.quality = 101 }?.contains("quality 101") == true)
        #expect(refused { $0.plays = 65536 }?.contains("65535") == true)
        #expect(refused { $0.keyframeInterval = -1 }?.contains("negative") == true)
        #expect(refused({ _ in }, RGBAImage(width: 16384, height: 1))?.contains("16383") == true)
        #expect(
            refused {
                $0.quality = 100
                $0.plays = 65535
            } == nil)
    }

    // MARK: - libwebp's tools

    static let webpinfo = "/usr/bin/webpinfo"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: webpinfo)))
    func webpinfoAcceptsTheFile() throws {
        let dir = try TempDirectory()
        let path = dir.file("out.webp")
        let out = try ImageDestination(path: path, options: Self.lossless(plays: 2))
        for i in 0..<4 { try out.add(Self.noise(24, 16, seed: UInt64(20 + i), alpha: true), duration: .milliseconds(30 + i)) }
        try out.finish()

        let info = try Command.run(Self.webpinfo, ["-summary", path], errorsToOutput: true)
        let text = info.text
        #expect(info.status == 0, "\(text)")
        #expect(text.contains("Number of frames: 4"), "\(text)")
        #expect(text.contains("Loop count      : 2"), "\(text)")
        #expect(text.contains("No error detected."), "\(text)")
        #expect(try ImageSource(path: path).frameCount == 4)
    }

    /// Frames without fully transparent pixels are encoded without `exact`
    /// (smaller, faster) and still come back bit for bit, translucent ones too.
    @Test func losslessWithoutTransparentPixelsIsExactWithoutExactMode() throws {
        var frames: [(RGBAImage, Duration)] = []
        for t in 0..<6 {
            let frame = RGBAImage.drawn(width: 40, height: 30) { x, y in
                (UInt8(x * 6), UInt8(y * 8), (x + y + t) % 7 == 0 ? 0 : UInt8(t * 40), x > 30 ? 128 : 255)
            }
            #expect(!WebPWriter.hasTransparentPixel(frame))
            frames.append((frame, .milliseconds(50)))
        }
        let source = try ImageSource(data: try Self.encode(frames, options: Self.lossless()))
        #expect(source.frameCount == 6)
        for i in 0..<6 {
            let got = try source.frame(at: i).pixels
            let want = frames[i].0.pixels
            let first = (0..<(got.count / 4)).first { got[($0 * 4)..<($0 * 4 + 4)] != want[($0 * 4)..<($0 * 4 + 4)] }
            #expect(
                first == nil,
                "frame \(i): pixel \(first ?? -1) is \(first.map { Array(got[($0 * 4)..<($0 * 4 + 4)]) } ?? []), not \(first.map { Array(want[($0 * 4)..<($0 * 4 + 4)]) } ?? [])"
            )
        }
    }
}
