import AnimTestSupport
import Testing

@testable import AnimKit

/// Frames read in any order equal frames read in order, and a seek starts
/// from the nearest keyframe or from the canvas already composited.
struct RandomAccessTests {
    static let files = Fixtures.allAnimations

    /// A small deterministic generator, so failures reproduce.
    typealias SplitMix = FuzzRandom

    @Test(arguments: files)
    func shuffledEqualsInOrder(_ file: String) throws {
        guard let inOrder = try? Fixtures.source(file) else { return }  // rejected files: see BadInputTests
        let reference = allFrames(inOrder)
        guard reference.error == nil, reference.frames.count > 1 else { return }
        let shuffled = try Fixtures.source(file)
        var rng = SplitMix(state: 42)
        var order = Array(0..<shuffled.frameCount)
        order.shuffle(using: &rng)
        order += order.reversed()
        for i in order {
            #expect(try shuffled.frame(at: i) == reference.frames[i], "\(file): frame \(i) read out of order differs")
        }
    }

    /// A first frame over the whole canvas disposed to the previous pixels,
    /// a second with a transparent pixel over what that gives back, then an
    /// opaque third frame. Read after frame 2, frame 1 restored frame 2's
    /// canvas where frame 0 had been, and its transparent pixel showed white
    /// (found by `optimize`'s check on Glide's transparent GIF).
    @Test func aKeyframeDisposedToPreviousGivesBackTransparency() throws {
        func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var gif = Array("GIF89a".utf8) + le(2) + le(1) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        // Frames 0 and 1: pixels [0, 1], index 0 transparent (frame 0
        // disposed to previous); frame 2: [1, 1], opaque.
        let image = { (gce: UInt8, lzw: [UInt8]) -> [UInt8] in
            [0x21, 0xF9, 4, gce, 10, 0, 0, 0, 0x2C] + le(0) + le(0) + le(2) + le(1) + [0, 2, 2] + lzw + [0]
        }
        gif += image(0x0D, [0x44, 0x0A]) + image(0x01, [0x44, 0x0A]) + image(0x00, [0x4C, 0x0A]) + [0x3B]
        let inOrder = try ImageSource(data: gif, options: DecodingOptions(decodeAhead: 0))
        let frame1 = try inOrder.frame(at: 1)
        #expect(frame1.pixels == [0, 0, 0, 0, 255, 255, 255, 255])
        let seeking = try ImageSource(data: gif, options: DecodingOptions(decodeAhead: 0))
        #expect(try seeking.frame(at: 2).pixels == [255, 255, 255, 255, 255, 255, 255, 255])
        #expect(try seeking.frame(at: 1) == frame1, "frame 1 after frame 2")
    }

    @Test func lastFrameDecodesFromNearestKeyframe() throws {
        let source = try Fixtures.source("webp/sparse-keyframes.webp")
        let last = source.frameCount - 1
        let key = try #require(source.frames.lastIndex { $0.isKeyframe })
        #expect(key > 0, "the fixture needs a keyframe after frame 0")
        _ = try source.frame(at: last)
        #expect(source.stepCounts.decoded == last - key + 1)
        // Stepping on from there decodes one more frame each time.
        _ = try source.frame(at: last - 1)  // backwards: back to the keyframe
        let before = source.stepCounts.decoded
        _ = try source.frame(at: last)
        #expect(source.stepCounts.decoded == before + 1)
    }

    @Test func readingInOrderDecodesEachFrameOnce() throws {
        let source = try Fixtures.source("extra/long.gif")
        for i in 0..<source.frameCount { _ = try source.frame(at: i) }
        #expect(source.stepCounts.decoded == source.frames.last!.imageRange.upperBound)
        _ = try source.frame(at: source.frameCount - 1)  // already on screen
        #expect(source.stepCounts.decoded == source.frames.last!.imageRange.upperBound)
    }

    @Test func outOfRangeIsAnError() throws {
        let source = try Fixtures.source("extra/long.gif")
        #expect(throws: AnimError(file: "extra/long.gif", frame: 120, CommonProblem.frameOutOfRange(frame: 120, frameCount: 120)))
        {
            try source.frame(at: 120)
        }
        #expect(throws: AnimError.self) { try source.frame(at: -1) }
    }
}
