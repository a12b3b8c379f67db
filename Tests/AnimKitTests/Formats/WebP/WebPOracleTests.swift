import AnimTestSupport
import CWebP
import Foundation
import Testing

@testable import AnimKit

/// Every frame of every WebP fixture equals, byte for byte, what libwebp's
/// own `WebPAnimDecoder` produces, decoded in this process.
struct WebPOracleTests {
    static let files = Fixtures.list("webp", ext: "webp")

    /// Frames and end timestamps from WebPAnimDecoder (RGBA, no threads).
    static func oracle(_ bytes: [UInt8]) -> (frames: [[UInt8]], timestamps: [Int], loop: Int)? {
        bytes.withUnsafeBufferPointer { buf -> ([[UInt8]], [Int], Int)? in
            var data = WebPData(bytes: buf.baseAddress, size: buf.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else { return nil }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let dec = WebPAnimDecoderNewInternal(&data, &options, WEBP_DEMUX_ABI_VERSION) else { return nil }
            defer { WebPAnimDecoderDelete(dec) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(dec, &info) != 0 else { return nil }
            let size = Int(info.canvas_width * info.canvas_height * 4)
            var frames: [[UInt8]] = []
            var stamps: [Int] = []
            while WebPAnimDecoderHasMoreFrames(dec) != 0 {
                var out: UnsafeMutablePointer<UInt8>? = nil
                var ts: Int32 = 0
                guard WebPAnimDecoderGetNext(dec, &out, &ts) != 0, let out else { return nil }
                frames.append(Array(UnsafeBufferPointer(start: out, count: size)))
                stamps.append(Int(ts))
            }
            return (frames, stamps, Int(info.loop_count))
        }
    }

    @Test func fixturesExist() { #expect(Self.files.count >= 12) }

    @Test(arguments: files)
    func bitExactWithWebPAnimDecoder(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        let expected = try #require(Self.oracle(bytes), "\(file): WebPAnimDecoder failed")
        let source = try ImageSource(data: bytes, name: file, options: DecodingOptions(durationPolicy: .raw))
        #expect(source.format == .webp)
        #expect(source.indexError == nil)
        try #require(source.frameCount == expected.frames.count, "\(file): frame count")
        var elapsed = Duration.zero
        for i in 0..<source.frameCount {
            let image = try source.frame(at: i)
            let diff = zip(image.pixels, expected.frames[i]).filter { $0 != $1 }.count
            #expect(diff == 0, "\(file) frame \(i): \(diff) bytes differ from WebPAnimDecoder")
            elapsed += source.frames[i].delay
            if source.frameCount > 1 {
                #expect(elapsed == .milliseconds(expected.timestamps[i]), "\(file) frame \(i): timestamp")
            }
        }
        if source.frameCount > 1 { #expect(source.loopCount == expected.loop) }
    }

    @Test func keyframeFlagsFollowLibwebp() throws {
        // A frame drawn over its predecessor with blending is not a keyframe.
        let source = try Fixtures.source("webp/non-keyframe-blend.webp")
        #expect(source.frames[0].isKeyframe)
        #expect(source.frames.contains { !$0.isKeyframe })
    }
}
