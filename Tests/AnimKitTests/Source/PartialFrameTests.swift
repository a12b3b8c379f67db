import AnimKitFoundation
import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Truncated files: a frame the file ends inside is flagged (GIF keeps it,
/// drawn as far as it goes) or left out (APNG, WebP); complete frames are
/// never flagged. Errors read well through Foundation.
struct PartialFrameTests {
    static func truncated(_ fixture: String, by cut: Int) throws -> (whole: ImageSource, cut: ImageSource) {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.url(fixture)))
        return (try ImageSource(data: bytes), try ImageSource(data: Array(bytes.dropLast(cut))))
    }

    @Test func gifKeepsItsCutImageFlagged() throws {
        let (whole, cut) = try Self.truncated("extra/long.gif", by: 20)
        #expect(whole.frames.allSatisfy { $0.isComplete })
        #expect(cut.frameCount == whole.frameCount, "the cut frame is still listed")
        #expect(cut.frames.dropLast().allSatisfy { $0.isComplete }, "complete frames are not flagged")
        #expect(cut.frames.last?.isComplete == false, "the frame the file ends inside is flagged")
        guard let error = cut.indexError, error.code == .truncated, let frame = error.frame else {
            Issue.record("indexError: \(String(describing: cut.indexError))")
            return
        }
        #expect(frame == cut.frameCount - 1)
        // Drawn as far as it goes: the frames before it are exact.
        for i in 0..<(cut.frameCount - 1) { #expect(try cut.frame(at: i) == whole.frame(at: i)) }
        #expect(try cut.frame(at: cut.frameCount - 1) != whole.frame(at: whole.frameCount - 1))
    }

    /// Every prefix of a file that stops before its first frame is a
    /// `.truncated` error (data still to come), never one told apart by its
    /// message; other bytes are `.unsupported`.
    @Test(arguments: ["extra/long.gif", "extra/apng-rgba16.png", "webp/lossless-anim-alpha.webp"])
    func shortPrefixesAreTruncations(_ fixture: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.url(fixture)))
        for n in [1, 3, 5, 7, 9, 11, 16, 24, 33] {
            do {
                _ = try ImageSource(data: Array(bytes.prefix(n)))
                Issue.record("\(fixture), \(n) bytes: opened")
            } catch let error as AnimError {
                guard error.code == .truncated else {
                    Issue.record("\(fixture), \(n) bytes: \(error)")
                    continue
                }
            }
        }
        for junk in ["GIF9", "RIFX", "hello, world"] {
            do {
                _ = try ImageSource(data: Array(junk.utf8))
                Issue.record("\(junk): opened")
            } catch let error as AnimError {
                guard error.code == .unsupported else {
                    Issue.record("\(junk): \(error)")
                    continue
                }
            }
        }
    }

    @Test func incompleteFramesCanBeLeftOut() throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.url("extra/long.gif")))
        let whole = try ImageSource(data: bytes)
        var options = DecodingOptions()
        options.allowsIncompleteFrames = false
        let cut = try ImageSource(data: Array(bytes.dropLast(20)), options: options)
        #expect(cut.frameCount == whole.frameCount - 1 && cut.frames.allSatisfy { $0.isComplete })
        #expect(cut.indexError != nil, "the error still says where the file ends")
        #expect(throws: AnimError.self) { try cut.frame(at: whole.frameCount - 1) }
        for i in 0..<cut.frameCount { #expect(try cut.frame(at: i) == whole.frame(at: i)) }
        let full = try ImageSource(data: bytes, options: options)
        #expect(full.frameCount == whole.frameCount, "a whole file loses nothing")
    }

    @Test(arguments: ["extra/apng-rgba16.png", "webp/lossless-anim-alpha.webp"])
    func apngAndWebPLeaveTheCutFrameOut(_ fixture: String) throws {
        let (whole, cut) = try Self.truncated(fixture, by: 20)
        #expect(whole.frames.allSatisfy { $0.isComplete })
        #expect(cut.frameCount == whole.frameCount - 1)
        #expect(cut.frames.allSatisfy { $0.isComplete })
        #expect(cut.indexError != nil)
    }

    @Test func readingInOrderDecodesEachStepOnce() throws {
        let source = try Fixtures.source("extra/long.gif", options: DecodingOptions(decodeAhead: 0))
        for i in 0..<source.frameCount { _ = try source.frame(at: i) }
        #expect(source.stepCounts.decoded == source.index.steps.count)
    }

    @Test func localizedDescriptionIsTheMessage() {
        let error: Error = AnimError(file: "a.gif", frame: 3, offset: 10, GIFProblem.endsInsideImageData)
        #expect(
            error.localizedDescription
                == "\(AnimError(file: "a.gif", frame: 3, offset: 10, GIFProblem.endsInsideImageData))")
        #expect(error.localizedDescription.contains("a.gif"))
    }
}
