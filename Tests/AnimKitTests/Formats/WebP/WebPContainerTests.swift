import Foundation
import Testing

@testable import AnimKit

/// The WebP container index on its own, on a file assembled chunk by chunk
/// around one lossless bitstream: frame offsets (stored halved), sizes,
/// durations, disposal and blending flags, the loop count, and the
/// keyframes that follow from them.
struct WebPContainerTests {
    typealias T = TinyFiles

    /// The VP8L chunk (header included) of a lossless 2×2 still image.
    static func vp8l() throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("anim-vp8l-\(getpid()).webp").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = EncodingOptions()
        options.lossless = true
        let out = try ImageDestination(path: path, format: .webp, options: options)
        try out.add(RGBAImage(width: 2, height: 2, trusting: [UInt8](repeating: 200, count: 16)), duration: .milliseconds(10))
        try out.finish()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let tag = Array("VP8L".utf8)
        for at in 0..<max(bytes.count - 8, 0) where bytes[at..<at + 4].elementsEqual(tag) {
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            return Array(bytes[at..<at + 8 + size + (size & 1)])
        }
        throw AnimError(file: path, WebPProblem.notAContainer)
    }

    static func anmf(x: Int, y: Int, duration: Int, flags: UInt8, _ image: [UInt8]) -> [UInt8] {
        let body = T.le(x / 2, 3) + T.le(y / 2, 3) + T.le(1, 3) + T.le(1, 3) + T.le(duration, 3) + [flags] + image
        return Array("ANMF".utf8) + T.le(body.count, 4) + body
    }

    /// A 6×4 canvas, loop 7: frame 0 at (0,0) for 50 ms, frame 1 at (4,2)
    /// for 120 ms disposed to background and not blended.
    static func file() throws -> [UInt8] {
        let image = try vp8l()
        let vp8x = Array("VP8X".utf8) + T.le(10, 4) + [0x12, 0, 0, 0] + T.le(5, 3) + T.le(3, 3)  // animation + alpha
        let anim = Array("ANIM".utf8) + T.le(6, 4) + [0, 0, 0, 0] + T.le(7, 2)
        let body =
            Array("WEBP".utf8) + vp8x + anim + anmf(x: 0, y: 0, duration: 50, flags: 0, image)
            + anmf(x: 4, y: 2, duration: 120, flags: 0b11, image)
        return Array("RIFF".utf8) + T.le(body.count, 4) + body
    }

    @Test func framesLoopAndFlags() throws {
        let c = try WebPContainer.index(ByteStore(try Self.file()), file: "t.webp", limits: DecodingLimits())
        #expect(
            c.summary.format == .webp && c.summary.width == 6 && c.summary.height == 4 && c.summary.loopCount == 7
                && c.summary.plays == .count(7))
        #expect(c.summary.error == nil && c.settledFrames == 2)
        try #require(c.steps.count == 2 && c.frames.count == 2)
        #expect(c.steps[0].rect == Rect(x: 0, y: 0, width: 2, height: 2) && c.frames[0].delay == .milliseconds(50))
        #expect(c.steps[0].dispose == .none && c.steps[0].blend == .over && c.steps[0].isKey)
        #expect(c.steps[1].rect == Rect(x: 4, y: 2, width: 2, height: 2) && c.frames[1].delay == .milliseconds(120))
        #expect(c.steps[1].dispose == .background && c.steps[1].blend == .source && !c.steps[1].isKey)
    }

    @Test func theFramesDecodeWhereTheContainerPutsThem() throws {
        let source = try ImageSource(data: try Self.file(), name: "t.webp")
        let last = try source.frame(at: 1)
        #expect(last.pixel(x: 0, y: 0) == (200, 200, 200, 200) && last.pixel(x: 5, y: 3) == (200, 200, 200, 200))
        #expect(last.pixel(x: 3, y: 3) == (0, 0, 0, 0))
    }

    @Test func aFileCutInsideTheSecondFrameKeepsTheFirst() throws {
        let bytes = try Self.file()
        let c = try WebPContainer.index(
            ByteStore(Array(bytes.prefix(bytes.count - 6))), file: "t.webp", limits: DecodingLimits())
        #expect(c.steps.count == 1 && c.summary.error != nil)
    }
}
