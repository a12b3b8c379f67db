import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Decoding ahead on other threads gives the frames one thread gives, for
/// every format: GIF's split decode (LZW ahead, colours on the compositor's
/// thread) and PNG's and WebP's whole-patch decode; and small steps stay on
/// the compositor's thread.
struct DecodeAheadTests {
    /// Five 200×200 frames: noise over the whole canvas (tens of KiB each
    /// once compressed, worth handing over) on even frames, a small changed
    /// square on odd ones.
    static func frames() -> [RGBAImage] {
        var rng = FuzzRandom(state: 0xDECA_DE)
        var pixels = [UInt8](repeating: 255, count: 200 * 200 * 4)
        return (0..<5).map { f in
            if f % 2 == 0 {
                for p in 0..<(200 * 200) {
                    let v = rng.next()
                    pixels[p * 4] = UInt8(truncatingIfNeeded: v) & 0xF0
                    pixels[p * 4 + 1] = UInt8(truncatingIfNeeded: v >> 8) & 0xE0
                    pixels[p * 4 + 2] = UInt8(truncatingIfNeeded: v >> 16) & 0xC0
                }
            } else {
                for y in 90..<110 { for x in 90..<110 { pixels[(y * 200 + x) * 4] = UInt8(f * 40) } }
            }
            return RGBAImage(width: 200, height: 200, trusting: pixels)
        }
    }

    static func encode(_ format: OutputFormat) throws -> [UInt8] {
        try ImageDestination.encode(frames(), as: format, duration: .milliseconds(50))
    }

    @Test(arguments: OutputFormat.allCases)
    func framesDecodedAheadAreTheFramesDecodedInline(_ format: OutputFormat) throws {
        let bytes = try Self.encode(format)
        let inline = try ImageSource(data: bytes, options: DecodingOptions(decodeAhead: 0))
        let ahead = try ImageSource(data: bytes, options: DecodingOptions(decodeAhead: 2))
        #expect(inline.frameCount == 5 && ahead.frameCount == 5)
        for i in 0..<5 {
            #expect(try ahead.frame(at: i) == inline.frame(at: i), "\(format) frame \(i)")
            // Time for the workers: a step they have not started when the
            // compositor needs it is taken back and decoded inline, which
            // on a fast decode and a busy machine may be every step.
            usleep(50_000)
        }
        #expect(inline.stepCounts.decodedAhead == 0)
        #expect(ahead.stepCounts.decodedAhead >= 2, "\(format): \(ahead.stepCounts.decodedAhead) of 5 decoded ahead")
    }

    @Test func aGIFCutShortGivesTheSameFramesAndErrorAhead() throws {
        let bytes = try Self.encode(.gif)
        let cut = Array(bytes.prefix(bytes.count * 3 / 4))
        func read(_ ahead: Int) -> (frames: [RGBAImage], error: String?) {
            guard let source = try? ImageSource(data: cut, options: DecodingOptions(decodeAhead: ahead)) else {
                return ([], "index")
            }
            var frames: [RGBAImage] = []
            for i in 0..<source.frameCount {
                guard let f = try? source.frame(at: i) else { return (frames, "frame \(i)") }
                frames.append(f)
            }
            return (frames, source.indexError.map { "\($0)" })
        }
        let inline = read(0)
        let ahead = read(2)
        #expect(inline.frames.count >= 2 && inline.frames == ahead.frames && inline.error == ahead.error)
        #expect(inline.error != nil, "the cut is reported")
    }

    /// Small steps go ahead in batches (`PrefetchBatchTests`); whichever
    /// thread decodes each, the frames are the same.
    @Test func smallStepsDecodedAheadInBatchesGiveTheSameFrames() throws {
        func frames(_ ahead: Int) throws -> [RGBAImage] {
            let source = try Fixtures.source("extra/long.gif", options: DecodingOptions(decodeAhead: ahead))
            return try (0..<source.frameCount).map { try source.frame(at: $0) }
        }
        let inline = try frames(0)
        #expect(inline.count > 10)
        #expect(try frames(2) == inline)
    }
}
