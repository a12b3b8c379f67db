import AnimTestSupport
import Testing

@testable import AnimKit

/// The browsers' answer on GIF edge cases (issue 14), each pinned by a
/// fixture.
struct GIFEdgeCaseTests {
    /// gif-suite `image-zero-width` (no image data at all),
    /// `image-zero-height` and `image-zero-size` (a local colour table cut
    /// by the end of the file): an image of no pixels is a frame showing
    /// the empty screen, and the file reads without error.
    @Test(arguments: ["image-zero-width", "image-zero-height", "image-zero-size"])
    func imagesOfNoPixelsAreNoError(_ name: String) throws {
        let source = try Fixtures.source("gif-suite/\(name).gif")
        #expect(source.indexError == nil, "\(String(describing: source.indexError))")
        #expect(source.frameCount == 1 && source.width == 1 && source.height == 1)
        let frame = try source.frame(at: 0)
        #expect(frame.pixels == [0, 0, 0, 0])
        #expect(source.frames[0].isComplete)
    }

    /// An image of no pixels followed by a real one: the parse goes on
    /// past it.
    @Test func anImageOfNoPixelsThenAnother() throws {
        var bytes = Array("GIF89a".utf8) + [2, 0, 2, 0, 0xF0, 0, 0] + [0, 0, 0, 255, 0, 0]
        bytes += [0x2C, 0, 0, 0, 0, 0, 0, 1, 0, 0]  // 0×1, no data
        bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]  // delay 10 cs
        bytes += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0]  // 2×2 of index 1 (red)
        bytes += [UInt8](repeating: 1, count: 4).withUnsafeBufferPointer { GIFLZWEncoder.encode($0, bitsPerPixel: 2) }
        bytes += [0x3B]
        let source = try ImageSource(data: bytes)
        #expect(source.indexError == nil, "\(String(describing: source.indexError))")
        #expect(source.frameCount == 2)
        #expect(try source.frame(at: 1).pixels == Array(repeatElement([255, 0, 0, 255] as [UInt8], count: 4).joined()))
    }

    /// wuffs' `multiple-loop-counts.gif` (loop blocks 50, 30 and 40 between
    /// its frames): the last counts, as Chromium reports a repetition count
    /// of 40 (`Tools/browser/check.py`).
    @Test func theLastLoopBlockCounts() throws {
        let source = try Fixtures.source("gif-public/multiple-loop-counts.gif")
        #expect(source.loopCount == 40 && source.plays == .count(41))
        #expect(source.frameCount == 4)
    }

    /// wuffs' `frame-out-of-bounds.gif`: a 2×2 screen whose first image
    /// spans (1,0)-(4,1). Chromium's canvas is the union, 4×2, later images
    /// clipped to it; `growsCanvasToFirstImage` false keeps the 2×2 screen.
    @Test func aFirstImagePastTheScreenGrowsTheCanvas() throws {
        let grown = try Fixtures.source("gif-public/frame-out-of-bounds.gif")
        #expect(grown.width == 4 && grown.height == 2)
        #expect(
            grown.frames.map(\.rect) == [
                Rect(x: 1, y: 0, width: 3, height: 1), Rect(x: 0, y: 1, width: 2, height: 1),
                Rect(x: 0, y: 4, width: 0, height: 0), Rect(x: 2, y: 0, width: 2, height: 2),
            ])
        var screen = DecodingOptions()
        screen.growsCanvasToFirstImage = false
        let clipped = try Fixtures.source("gif-public/frame-out-of-bounds.gif", options: screen)
        #expect(clipped.width == 2 && clipped.height == 2)
        // The pixels inside the screen are the same either way.
        for i in 0..<4 {
            let (g, c) = (try grown.frame(at: i), try clipped.frame(at: i))
            for y in 0..<2 {
                for x in 0..<2 {
                    #expect(g.pixels[(y * 4 + x) * 4..<(y * 4 + x) * 4 + 4] == c.pixels[(y * 2 + x) * 4..<(y * 2 + x) * 4 + 4])
                }
            }
        }
        // gif-suite image-outside-bg: 2×2 -> 4×4, as Chromium.
        #expect(try Fixtures.source("gif-suite/image-outside-bg.gif").width == 4)
    }

    /// A truncated interlaced GIF (`Tools/fixtures/make-interlace-cut.sh`):
    /// the rows decoded so far cover the rows below them as in Chromium,
    /// whose pixels are the expectation (cut in pass 3, and in the last
    /// row of pass 4).
    @Test(arguments: ["il-60", "il-80"])
    func aTruncatedInterlacedImageShowsAsInChromium(_ name: String) throws {
        let source = try Fixtures.source("extra/interlace-cut/\(name).gif")
        #expect(source.indexError != nil, "the file is cut")
        let frame = try source.frame(at: 0)
        let chromium = try Fixtures.bytes("extra/interlace-cut/\(name).chromium.rgba")
        #expect(frame.pixels.count == chromium.count)
        let differing = stride(from: 0, to: chromium.count, by: 4).filter {
            frame.pixels[$0..<($0 + 4)] != chromium[$0..<($0 + 4)]
        }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, first at \(differing.first.map { $0 / 4 } ?? -1)")
    }
}
