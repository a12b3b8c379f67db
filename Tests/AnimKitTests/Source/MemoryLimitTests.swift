import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Issue 27, part 2: `DecodingLimits.maxMemory` bounds a source's decoding.
/// Decoding ahead is cut to fit; a file whose decoding cannot fit on one
/// thread opens (its index costs little) and refuses its frames before
/// anything canvas-sized is allocated.
struct MemoryLimitTests {
    /// An 8000×8000 APNG of 249 KB (see Fixtures/hostile/README.md).
    let bomb = Fixtures.path("hostile/zeros-8000.png")

    func options(maxMemory: Int, decodeAhead: Int = 4) -> DecodingOptions {
        var o = DecodingOptions(decodeAhead: decodeAhead)
        o.limits.maxMemory = maxMemory
        return o
    }

    @Test func aSourceOverTheBudgetOpensButRefusesItsFrames() throws {
        let source = try ImageSource(path: bomb, options: options(maxMemory: 200 << 20))
        #expect(source.frameCount == 2 && source.width == 8000)
        // A canvas and a patch of 8000×8000×4 at least.
        #expect(source.minimumMemory >= 2 * 8000 * 8000 * 4)
        #expect(source.minimumMemory < 3 * 8000 * 8000 * 4)
        #expect(throws: AnimError(file: bomb, LimitExceeded(.memory, value: source.minimumMemory, maximum: 200 << 20))) {
            _ = try source.frame(at: 0)
        }
        // Raised, the same file decodes: frame 1 is frame 0 with a red pixel.
        let allowed = try ImageSource(path: bomb, options: options(maxMemory: 4 << 30))
        let last = try allowed.frame(at: 1)
        #expect(Array(last.pixels[0..<8]) == [255, 0, 0, 255, 0, 0, 0, 0])
    }

    /// A budget of exactly the one-thread working set: nothing is decoded
    /// ahead, and the frames are those of a source without a budget.
    @Test(arguments: OutputFormat.allCases)
    func decodingAheadIsCutToFit(_ format: OutputFormat) throws {
        let bytes = try DecodeAheadTests.encode(format)
        let free = try ImageSource(data: bytes, options: options(maxMemory: 1 << 40, decodeAhead: 2))
        #expect(free.memoryFootprint > free.minimumMemory, "\(format): decoding ahead costs buffers")
        let tight = try ImageSource(data: bytes, options: options(maxMemory: free.minimumMemory, decodeAhead: 2))
        #expect(tight.memoryFootprint == tight.minimumMemory)
        for i in 0..<free.frameCount {
            #expect(try tight.frame(at: i).pixels == free.frame(at: i).pixels, "\(format) frame \(i)")
        }
        #expect(tight.stepCounts.decodedAhead == 0)
        // One byte short of the one-thread set: refused.
        let short = try ImageSource(data: bytes, options: options(maxMemory: free.minimumMemory - 1))
        #expect(throws: AnimError.self) { _ = try short.frame(at: 0) }
    }

    /// The working set grows with what is delivered: a colour-converted
    /// canvas (and its shadow) costs two canvases more than the stored values.
    @Test func colourConversionIsCounted() throws {
        let path = Fixtures.path("color/linear.png")
        let converted = try ImageSource(path: path)
        var stored = DecodingOptions()
        stored.colorManagement = .none
        let plain = try ImageSource(path: path, options: stored)
        #expect(converted.colorConversion != nil)
        #expect(converted.minimumMemory - plain.minimumMemory == 2 * plain.width * plain.height * 4)
    }

    @Test func theDefaultIsAQuarterOfMemoryAtMost2GiB() {
        let quarter = System.physicalMemory / 4
        #expect(DecodingLimits().maxMemory == min(quarter, 2 << 30))
    }

    @Test func encoderEstimates() {
        let px = 1000 * 500
        #expect(ImageDestination.memoryFootprint(format: .gif, width: 1000, height: 500) == 24 * px)
        #expect(ImageDestination.memoryFootprint(format: .apng, width: 1000, height: 500, frames: 1) == 36 * px)
        #expect(ImageDestination.memoryFootprint(format: .webp, width: 1000, height: 500, outputBytes: 7) == 64 * px + 7)
        #expect(ImageDestination.memoryFootprint(format: .gif, width: 1 << 40, height: 1 << 40) == Int.max / 2)
    }
}
