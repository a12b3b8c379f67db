import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// `ImageSource.opening(path:throughFrame:)` (a previewer's `--frame N`):
/// on a file large enough to be mapped, only a prefix is indexed, and the
/// frame asked for is the full source's, pixel for pixel, in every format.
struct OpeningThroughFrameTests {
    /// `count` frames of noise, `side`×`side`, as `format` in a temporary file
    /// (noise does not compress: each frame adds about side² × 3 bytes).
    static func file(_ format: OutputFormat, side: Int, count: Int) throws -> String {
        var options = EncodingOptions()
        options.lossless = true
        let out = try ImageDestination(format: format, options: options)
        var rng = FuzzRandom(state: 7)
        for f in 0..<count {
            var image = RGBAImage(width: side, height: side)
            for i in 0..<(side * side) {
                let v = rng.next()
                image.pixels[i * 4] = UInt8(truncatingIfNeeded: v)
                image.pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: v >> 8)
                image.pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: v >> 16 &+ UInt64(f))
                image.pixels[i * 4 + 3] = 255
            }
            try out.add(image, duration: .milliseconds(50))
        }
        try out.finish()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("through-\(UUID().uuidString).\(format)").path
        try Data(out.data!).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [OutputFormat.apng, .webp])
    func aPrefixServesTheFrame(_ format: OutputFormat) throws {
        let path = try Self.file(format, side: 700, count: 6)
        defer { unlink(path) }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size > ByteStore.mapThreshold, "\(size) bytes: not large enough to be mapped")
        let whole = try ImageSource(path: path)
        #expect(whole.frameCount == 6)
        for k in [0, 2, 5] {
            let part = try ImageSource.opening(path: path, throughFrame: k)
            #expect(part.frameCount > k)
            #expect(try part.frame(at: k) == whole.frame(at: k), "\(format) frame \(k)")
            if k == 0 { #expect(part.frameCount < whole.frameCount, "frame 0 from a prefix, not the whole file") }
        }
        // Past the last frame: the whole file, whose index says so.
        #expect(try ImageSource.opening(path: path, throughFrame: 9).frameCount == 6)
    }
}
