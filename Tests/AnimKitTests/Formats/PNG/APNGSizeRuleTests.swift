import AnimTestSupport
import CDeflate
import Testing

@testable import AnimKit

/// The APNG writer's size rules learnt from APNG Assembler (issue 28),
/// each on frames where it decides: the structure it leads to is asserted,
/// and the file decodes back to the frames given in anim, Pillow and ffmpeg.
struct APNGSizeRuleTests {
    /// anim, Pillow and ffmpeg all show `frames`.
    static func decodedExactly(_ data: [UInt8], _ frames: [RGBAImage]) throws {
        let wrong = try OtherDecoders.mismatches(data, frames)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// Frames as GIF gives them: alpha only 0 or 255, a ring of
    /// transparency moving; 3 × 120 colours (too many for a palette), or
    /// 200 grey levels (a key left).
    static func gifLike(grey: Bool, translucent: Bool = false) -> [RGBAImage] {
        (0..<3).map { f in
            RGBAImage.drawn(width: 24, height: 20) { x, y in
                let d = (x - 8 - f * 4) * (x - 8 - f * 4) + (y - 10) * (y - 10)
                if (16..<40).contains(d) { return (0, 0, 0, translucent && x == 3 ? 128 : 0) }
                let v = UInt8((x * 20 + y + f * 120) % (grey ? 200 : 256))
                return grey ? (v, v, v, 255) : (v, UInt8((y * 13 + f * 7) % 256), UInt8(x * 9 % 256), 255)
            }
        }
    }

    /// RGB with a colour key: 3 bytes a pixel where RGBA takes 4 (APNG
    /// Assembler's choice for GIF frames; Glide's 1080×1080 interlaced
    /// transparent GIF: 1,137,401 → 1,055,115 bytes).
    @Test func framesWithoutTranslucencyAreRGBWithAKey() throws {
        let frames = Self.gifLike(grey: false)
        #expect(APNGPaletteDepthTests.entries(frames) > 256)
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = APNGPaletteDepthTests.layout(data)
        #expect(layout.type == 2 && layout.trns == 6, "\(layout)")
        try Self.decodedExactly(data, frames)
    }

    /// Grey levels with transparency: grey with a key level, not grey and alpha.
    @Test func greyFramesWithoutTranslucencyAreGreyWithAKey() throws {
        let frames = Self.gifLike(grey: true)
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = APNGPaletteDepthTests.layout(data)
        #expect(layout.type == 0 && layout.trns == 2, "\(layout)")
        try Self.decodedExactly(data, frames)
    }

    /// One pixel of alpha 128 needs the alpha channel.
    @Test func aTranslucentPixelNeedsRGBA() throws {
        let frames = Self.gifLike(grey: false, translucent: true)
        let data = try APNGDisposeChoiceTests.encode(frames)
        #expect(APNGPaletteDepthTests.layout(data).type == 6)
        try Self.decodedExactly(data, frames)
    }

    /// A terminal recording's frame: one colour but for a few lines of
    /// text. zlib's level 9 deflates such rows smaller than libdeflate's
    /// level 12 (bubbletea's tabs.gif, frame 0: 1,781 bytes against 2,012),
    /// so the smaller is kept; the stream inflates back to the rows.
    @Test func redundantRowsKeepTheSmallerDeflate() throws {
        let (w, h) = (1200, 600)
        var rows = [UInt8](repeating: 1, count: (w + 1) * h)
        for y in 0..<h {
            rows[y * (w + 1)] = 0  // filter: none
            for x in 82..<136 where (80..<112).contains(y) && (x * 7 + y * 3) % 11 < 4 {
                rows[y * (w + 1) + 1 + x] = UInt8(2 + (x + y) % 5)
            }
        }
        var indices: [UInt8] = []
        for y in 0..<h {
            let start = y * (w + 1) + 1
            indices += rows[start..<(start + w)]
        }
        let ours = try #require(
            indices.withUnsafeBytes { PNGBridge.deflate(pixels: $0, width: w, height: h, channels: 1, level: 12, search: false) })
        let compressor = try #require(libdeflate_alloc_compressor(12))
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: rows.count + 1024)
        let theirs: Int = libdeflate_zlib_compress(compressor, rows, rows.count, &out, out.count)
        #expect(theirs > 0 && ours.count < theirs, "\(ours.count) against libdeflate's \(theirs)")
        var back = [UInt8](repeating: 0, count: rows.count)
        let decompressor = try #require(libdeflate_alloc_decompressor())
        defer { libdeflate_free_decompressor(decompressor) }
        var n = 0
        #expect(libdeflate_zlib_decompress(decompressor, ours, ours.count, &back, back.count, &n) == LIBDEFLATE_SUCCESS)
        #expect(n == rows.count && back == rows)
    }

    /// A file written again in a wider form (here a translucent frame after
    /// keyed RGB ones) keeps the values given, with a colour profile too:
    /// the frames are read back as stored, not converted through the
    /// profile (Display P3 to sRGB moves these colours; before, the frames
    /// written again were moved).
    @Test func writtenAgainWithAProfileKeepsTheValuesGiven() throws {
        var options = EncodingOptions()
        let profile: [UInt8] = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        options.metadata.iccProfile = profile
        let frames = Self.gifLike(grey: false) + [Self.gifLike(grey: false, translucent: true)[0]]
        let data = try ImageDestination.encode(frames, as: .apng, options: options, duration: .milliseconds(100))
        #expect(APNGPaletteDepthTests.layout(data).type == 6, "RGBA")
        var stored = DecodingOptions()
        stored.colorManagement = .none
        let back = try ImageSource(data: data, options: stored)
        #expect(back.frameCount == 4)
        for i in 0..<4 { #expect(OtherDecoders.differences(frames[i], try back.frame(at: i)) == 0, "frame \(i)") }
    }

    /// From effort 7, an animation of at most 16 KiB of rows is deflated by
    /// zopfli too (it costs milliseconds there); a larger one is not (the
    /// same bytes as at effort 5).
    @Test func aSmallAnimationIsDeflatedHarder() throws {
        let small = Self.gifLike(grey: false)  // 3 frames of 24×20 RGB: under 5 KiB of rows
        let five = try APNGDisposeChoiceTests.encode(small, effort: 5)
        let seven = try APNGDisposeChoiceTests.encode(small, effort: 7)
        #expect(seven.count < five.count, "\(seven.count) against \(five.count)")
        try Self.decodedExactly(seven, small)
        let large = APNGGreyModeTests.frames(8).map { f in
            RGBAImage.drawn(width: 128, height: 96) { x, y in
                let v = f.pixels[((y % 48) * 64 + x % 64) * 4]
                return (v, UInt8(x), UInt8(y), 255)
            }
        }
        #expect(
            try APNGDisposeChoiceTests.encode(large, effort: 7) == APNGDisposeChoiceTests.encode(large, effort: 5),
            "36 KiB of rows in frame 0 alone")
    }
}
