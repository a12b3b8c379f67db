import Testing

@testable import AnimKit

/// The colour under fully transparent pixels never shows: by default it is
/// written as transparent black (APNG) or left to libwebp (WebP), so that an animation whose hidden colours
/// change from frame to frame (as some exporters leave them) sends only what
/// shows; `keepHiddenColors` keeps it bit for bit.
struct HiddenColorTests {
    /// 40×30 frames: transparent everywhere, with a different colour under
    /// each transparent pixel in every frame, and an opaque 4×4 square
    /// moving one pixel a frame.
    static func frames(_ count: Int) -> [RGBAImage] {
        (0..<count).map { f in
            var px = [UInt8](repeating: 0, count: 40 * 30 * 4)
            for i in 0..<(40 * 30) {
                let (x, y) = (i % 40, i / 40)
                let square = (10 + f..<14 + f).contains(x) && (8..<12).contains(y)
                let noise = UInt32(truncatingIfNeeded: (i + 1) &* 2_654_435_761 &+ f &* 40503) >> 8
                (px[4 * i], px[4 * i + 1], px[4 * i + 2], px[4 * i + 3]) =
                    square
                    ? (200, 30, 60, 255) : (UInt8(noise & 0xFF), UInt8(noise >> 8 & 0xFF), UInt8(noise >> 16 & 0xFF), 0)
            }
            return RGBAImage(width: 40, height: 30, pixels: px)
        }
    }

    static func encode(_ frames: [RGBAImage], _ format: OutputFormat, keep: Bool) throws -> [UInt8] {
        var o = EncodingOptions()
        o.lossless = true
        o.keepHiddenColors = keep
        let out = try ImageDestination(format: format, options: o)
        for f in frames { try out.add(f, duration: .milliseconds(50)) }
        try out.finish()
        return try #require(out.data)
    }

    @Test(arguments: [OutputFormat.apng, .webp])
    func hiddenColoursBecomeTransparentBlack(_ format: OutputFormat) throws {
        let frames = Self.frames(5)
        let cleared = try Self.encode(frames, format, keep: false)
        let kept = try Self.encode(frames, format, keep: true)
        let back = try ImageSource(data: cleared)
        let exact = try ImageSource(data: kept)
        #expect(back.frameCount == 5 && exact.frameCount == 5)
        for i in 0..<5 {
            let want = frames[i].invisibleCleared()
            #expect(want != frames[i], "frame \(i) has hidden colours")
            // APNG writes them transparent black; libwebp may put any colour there.
            let got = try back.frame(at: i)
            #expect(format == .webp ? got.invisibleCleared() == want : got == want, "frame \(i): shown pixels kept")
            #expect(try exact.frame(at: i) == frames[i], "frame \(i): kept bit for bit")
        }
        #expect(cleared.count * 3 < kept.count, "\(cleared.count) bytes against \(kept.count)")
        if format == .apng {
            // Only the moving square is sent after frame 0: at most 5×4 pixels.
            let rects = back.frames.dropFirst().map { $0.rect }
            #expect(rects.allSatisfy { $0.width * $0.height <= 5 * 4 }, "\(rects)")
        }
    }
}
