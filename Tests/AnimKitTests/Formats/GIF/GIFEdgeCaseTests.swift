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
}
