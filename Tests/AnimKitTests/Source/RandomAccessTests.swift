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

    @Test func lastFrameDecodesFromNearestKeyframe() throws {
        let source = try Fixtures.source("webp/sparse-keyframes.webp")
        let last = source.frameCount - 1
        let key = try #require(source.frames.lastIndex { $0.isKeyframe })
        #expect(key > 0, "the fixture needs a keyframe after frame 0")
        _ = try source.frame(at: last)
        #expect(source.stepsDecoded == last - key + 1)
        // Stepping on from there decodes one more frame each time.
        _ = try source.frame(at: last - 1)  // backwards: back to the keyframe
        let before = source.stepsDecoded
        _ = try source.frame(at: last)
        #expect(source.stepsDecoded == before + 1)
    }

    @Test func readingInOrderDecodesEachFrameOnce() throws {
        let source = try Fixtures.source("extra/long.gif")
        for i in 0..<source.frameCount { _ = try source.frame(at: i) }
        #expect(source.stepsDecoded == source.frames.last!.imageRange.upperBound)
        _ = try source.frame(at: source.frameCount - 1)  // already on screen
        #expect(source.stepsDecoded == source.frames.last!.imageRange.upperBound)
    }

    @Test func outOfRangeIsAnError() throws {
        let source = try Fixtures.source("extra/long.gif")
        #expect(throws: AnimError.frameOutOfRange(file: "extra/long.gif", frame: 120, frameCount: 120)) {
            try source.frame(at: 120)
        }
        #expect(throws: AnimError.self) { try source.frame(at: -1) }
    }
}
