import AnimTestSupport
import Testing

@testable import AnimKit

/// Fed in pieces, an incremental source gives the frames of the whole file.
struct IncrementalSourceTests {
    static let files = Fixtures.sample([
        "gif-suite/animation-multi-image.gif", "gif-suite/images-combine.gif", "apng-suite/002.png", "apng-suite/000.png",
    ])

    /// Feeds `bytes` in the given chunk sizes, checking after each chunk that
    /// the frames available are frames of the whole file; returns the source.
    func feed(_ bytes: [UInt8], chunks: [Int], whole: [RGBAImage], file: String) throws -> IncrementalImageSource {
        let inc = IncrementalImageSource(name: file)
        var offset = 0
        var seen = 0
        var k = 0
        while offset < bytes.count {
            let n = min(chunks[k % chunks.count], bytes.count - offset)
            inc.append(bytes[offset..<(offset + n)])
            offset += n
            k += 1
            let count = inc.frameCount
            #expect(count >= seen && count <= whole.count, "\(file) at \(offset): \(count) frames after \(seen)")
            if count > seen {
                // The newest frame is final: it equals the whole file's.
                #expect(try inc.frame(at: count - 1) == .frame(whole[count - 1]), "\(file) frame \(count - 1) at \(offset)")
                seen = count
            }
            if count < whole.count { #expect(try inc.frame(at: count) == .notYetAvailable) }
            #expect(inc.error == nil, "\(file) at \(offset): \(String(describing: inc.error))")
        }
        inc.finish()
        return inc
    }

    func check(_ file: String, chunks: [Int]) throws {
        let bytes = try Fixtures.bytes(file)
        let whole = try Fixtures.source(file)
        let frames = allFrames(whole)
        try #require(frames.error == nil && whole.indexError == nil)
        let inc = try feed(bytes, chunks: chunks, whole: frames.frames, file: file)
        #expect(inc.error == nil && inc.frameCount == whole.frameCount)
        for i in 0..<whole.frameCount {
            #expect(try inc.frame(at: i) == .frame(frames.frames[i]), "\(file) frame \(i) after finish")
        }
    }

    @Test(arguments: files)
    func byteByByte(_ file: String) throws {
        // One byte at a time; the index is looked at after every 7th byte.
        try check(file, chunks: [1, 1, 1, 1, 1, 1, 1])
    }

    @Test(arguments: files)
    func randomChunks(_ file: String) throws {
        var rng = RandomAccessTests.SplitMix(state: UInt64(file.count))
        try check(file, chunks: (0..<50).map { _ in Int.random(in: 1...700, using: &rng) })
    }

    @Test(arguments: ["webp/lossless-anim-alpha.webp", "extra/apng-gray8.png", "extra/long.gif"])
    func truncatedStreamReportsAfterTheLastCompleteFrame(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        let whole = try Fixtures.source(file)
        let inc = IncrementalImageSource(name: "cut")
        inc.append(bytes[0..<(bytes.count * 2 / 3)])
        let before = inc.frameCount
        #expect(inc.error == nil && before > 0 && before < whole.frameCount)
        inc.finish()
        let error = try #require(inc.error)
        #expect(error.code == .truncated, "\(error)")
        #expect(inc.frameCount >= before)
        for i in 0..<before { #expect(try inc.frame(at: i) == .frame(whole.frame(at: i))) }
        #expect(throws: AnimError.self) { try inc.frame(at: whole.frameCount - 1) }
    }

    @Test func notAnImageFailsEarly() {
        let inc = IncrementalImageSource(name: "x")
        inc.append(Array("this is not an image at all".utf8))
        #expect(inc.error == AnimError(file: "x", CommonProblem.unknownFormat))
    }
}
