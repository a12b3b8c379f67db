import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// A still delivered smaller than its canvas is shrunk while it decodes
/// where the codec can (WebP: libwebp's scaled decode), with no canvas-sized
/// buffer: the same picture as decoding whole then `Downsampler`, but for
/// how the two box filters weigh the source pixels an output pixel's edge
/// cuts. Measured on Pillow's hopper tiled to 6000×4000, lossy WebP
/// (`anim extract --max-size N`, before and after): PSNR 52.1 dB at 80
/// pixels wide, 49.4 at 160, 41.8 at 640. The still here, rings and a
/// 7×5-pixel hatch, is the hard case: 34.9 dB at 135×90.
struct ScaledDecodeTests {
    /// A 600×400 still with detail at every scale (rings and a hatch,
    /// translucent at the left), as lossless WebP.
    static func still() throws -> [UInt8] {
        let (w, h) = (600, 400)
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let d = (x - 300) * (x - 300) + (y - 200) * (y - 200)
                let i = (y * w + x) * 4
                px[i] = UInt8(truncatingIfNeeded: d / 97)
                px[i + 1] = UInt8(truncatingIfNeeded: (x * 3 + y * 5) % 256)
                px[i + 2] = (x / 7 + y / 5) % 2 == 0 ? 230 : 20
                px[i + 3] = x < 100 ? UInt8(x * 255 / 100) : 255
            }
        }
        return try WebPStill.lossless(RGBAImage(width: w, height: h, trusting: px))
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let mse = zip(a, b).reduce(0.0) { $0 + Double((Int($1.0) - Int($1.1)) * (Int($1.0) - Int($1.1))) } / Double(a.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    @Test(arguments: [(160, 90), (80, 48), (33, 17)])
    func aWebPStillShrinksAsItDecodes(_ size: (Int, Int)) throws {
        let r = try Self.shrunk(try Self.still(), "still.webp", to: size)
        let fit = Downsampler.fit(width: 600, height: 400, maxWidth: size.0, maxHeight: size.1)
        #expect(r.got.width == fit.width && r.got.height == fit.height && r.got.pixels.count == r.expected.count)
        let psnr = Self.psnr(r.got.pixels, r.expected)
        #expect(psnr >= 34.5, "PSNR \(psnr) dB against decode-then-downsample")
        #expect(r.noCanvas, "the cursor never composited")
        #expect(r.again == r.got, "the same still when asked again")
    }

    /// `bytes` delivered at `size` against its whole frame downsampled,
    /// and whether the cursor made no canvas.
    static func shrunk(_ bytes: [UInt8], _ name: String, to size: (Int, Int)) throws -> (
        got: RGBAImage, expected: [UInt8], noCanvas: Bool, again: RGBAImage
    ) {
        // As stored (PngSuite's files carry gAMA; a frame delivered smaller
        // is converted after it is downsampled, either way).
        var options = DecodingOptions()
        options.colorManagement = .none
        let whole = try ImageSource(data: bytes, name: name, options: options).frame(at: 0)
        options.fitIn = PixelSize(width: size.0, height: size.1)
        let source = try ImageSource(data: bytes, name: name, options: options)
        let got = try source.frame(at: 0)
        let down = Downsampler(sourceWidth: whole.width, sourceHeight: whole.height, width: got.width, height: got.height)
        var expected = [UInt8](repeating: 0, count: got.width * got.height * 4)
        whole.pixels.withUnsafeBytes { src in expected.withUnsafeMutableBytes { down.run(src, into: $0) } }
        return (got, expected, source.cursorHasNoCanvas, try source.frame(at: 0))
    }

    /// 600×400 opaque, 216 colours (the GIF covers the canvas whole).
    static func paletteStill() -> RGBAImage {
        let (w, h) = (600, 400)
        var px = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                px[i] = UInt8(((x / 3) % 6) * 51)
                px[i + 1] = UInt8(((y / 2) % 6) * 51)
                px[i + 2] = UInt8((((x + y) / 11) % 6) * 51)
            }
        }
        return RGBAImage(width: w, height: h, trusting: px)
    }

    /// GIF and PNG stills are shrunk row by row as they decode, to exactly
    /// the pixels of decoding whole then downsampling.
    @Test(arguments: [OutputFormat.gif, .apng])
    func gifAndPNGStillsShrinkRowByRowExactly(_ format: OutputFormat) throws {
        let bytes = try ImageDestination.encode([Self.paletteStill()], as: format, duration: .zero)
        for size in [(160, 90), (33, 17), (600, 399)] {
            let r = try Self.shrunk(bytes, "still.\(format)", to: size)
            #expect(r.got.pixels == r.expected, "\(format) at \(size)")
            #expect(r.noCanvas, "\(format) at \(size): no canvas")
        }
    }

    /// The memory a source estimates for such a still follows the output,
    /// not the canvas (`--max-memory` lets a preview through); the same
    /// file cut inside its data needs the canvas after all, refused when
    /// that does not fit.
    @Test func theMemoryAShrunkStillNeedsFollowsTheOutput() throws {
        let bytes = try ImageDestination.encode([Self.paletteStill()], as: .apng, duration: .zero)
        var options = DecodingOptions(fitIn: PixelSize(width: 80, height: 60))
        let source = try ImageSource(data: bytes, name: "still.png", options: options)
        #expect(source.memoryFootprint < WorkingSet.runtime + 600 * 400 * 4, "no canvas counted")
        options.limits.maxMemory = source.memoryFootprint
        let tight = try ImageSource(data: bytes, name: "still.png", options: options)
        #expect(try tight.frame(at: 0).width == 80)
        // Bytes in the middle of the image data changed (its CRC no longer
        // matches, which the index does not check): the decode stops part
        // way and the usual path would show the rows before.
        var damaged = bytes
        for i in (bytes.count / 2)..<(bytes.count / 2 + 16) { damaged[i] ^= 0x5A }
        let cut = try ImageSource(data: damaged, name: "damaged.png", options: options)
        #expect(cut.memoryFootprint == source.memoryFootprint)
        do {
            _ = try cut.frame(at: 0)
            Issue.record("a damaged still decoded within a budget without its canvas")
        } catch let error as AnimError {
            #expect((error.problem as? LimitExceeded)?.limit == .memory, "\(error)")
        }
    }

    /// An interlaced PNG comes in passes: it takes the usual path, with the
    /// same pixels (PngSuite's basi6a08, 32×32 RGBA).
    @Test func anInterlacedPNGIsComposited() throws {
        let bytes = try Fixtures.bytes("pngsuite/basi6a08.png")
        let r = try Self.shrunk(bytes, "basi6a08.png", to: (13, 13))
        #expect(r.got.pixels == r.expected && !r.noCanvas)
    }

    /// A size larger than the canvas on one axis takes the usual path
    /// (composited, then resampled).
    @Test func anEnlargedAxisIsComposited() throws {
        var options = DecodingOptions()
        options.resizeTo = PixelSize(width: 1200, height: 200)
        let larger = try ImageSource(data: try Self.still(), name: "still.webp", options: options)
        let frame = try larger.frame(at: 0)
        #expect(frame.width == 1200 && frame.height == 200 && !larger.cursorHasNoCanvas)
    }
}

extension ImageSource {
    /// Whether the cursor has made no canvas (`FrameCursor.scaledStill`).
    fileprivate var cursorHasNoCanvas: Bool { cursor.withLock { $0.compositor == nil } }
}
