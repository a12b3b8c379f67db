import AnimTestSupport
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
            RGBAImage.drawn(width: 40, height: 30) { x, y in
                guard !((10 + f..<14 + f).contains(x) && (8..<12).contains(y)) else { return (200, 30, 60, 255) }
                let noise = UInt32(truncatingIfNeeded: (y * 40 + x + 1) &* 2_654_435_761 &+ f &* 40503) >> 8
                return (UInt8(noise & 0xFF), UInt8(noise >> 8 & 0xFF), UInt8(noise >> 16 & 0xFF), 0)
            }
        }
    }

    static func encode(_ frames: [RGBAImage], _ format: OutputFormat, keep: Bool) throws -> [UInt8] {
        var o = EncodingOptions()
        o.lossless = true
        o.keepHiddenColors = keep
        return try ImageDestination.encode(frames, as: format, options: o, duration: .milliseconds(50))
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
            // Only the moving square is sent after frame 0: at most 5×4
            // pixels, or with a packed palette (two colours: one bit a
            // pixel) the rectangle from the corner to it.
            let rects = back.frames.dropFirst().map { $0.rect }
            for (f, r) in zip(1..., rects) {
                #expect(r.width * r.height <= 5 * 4 || r.x == 0 && r.y == 0 && cleared[24] < 8, "\(rects)")
                #expect(r.x + r.width <= 14 + f && r.y + r.height <= 12, "\(rects)")
            }
        }
    }
}
