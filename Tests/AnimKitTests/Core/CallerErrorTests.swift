import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Issue 27, part 4: a caller's bad sizes throw instead of stopping the
/// process, and every `async` function honours cancellation.
struct CallerErrorTests {
    @Test func pixelsOfTheWrongSizeThrow() throws {
        #expect(
            throws: AnimError(file: "<pixels>", CommonProblem.pixelCount(bytes: 5, width: 2, height: 1, needed: 8))
        ) { try RGBAImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5]) }
        #expect(throws: AnimError.self) { try RGBAImage(width: -1, height: 4, pixels: []) }
        #expect(throws: AnimError.self) { try RGBAImage(width: 1 << 40, height: 1 << 40, pixels: []) }
        let image = try RGBAImage(width: 1, height: 2, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(image.pixel(x: 0, y: 1) == (5, 6, 7, 8))
        #expect(try RGBAImage(width: 0, height: 3, pixels: []).pixels.isEmpty)
    }

    /// A stream of chunks that never ends unless cancelled: appending from
    /// it ends with `CancellationError`, the source finished with what came.
    @Test func appendingFromAnEndlessSequenceHonoursCancellation() async throws {
        let gif = try Fixtures.bytes("gif-suite/255-codes.gif")
        let stream = IncrementalImageSource(name: "endless")
        let (chunks, feed) = AsyncStream.makeStream(of: [UInt8].self)
        feed.yield(gif)
        let task = Task { try await stream.append(contentsOf: chunks) }
        // The chunk arrived: its frame is there.
        while stream.source?.frameCount ?? 0 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        feed.yield([0])  // the next chunk wakes the loop, which then sees the cancellation
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(stream.isFinished)
        #expect(stream.source?.frameCount == (try ImageSource(data: gif).frameCount))
    }
}
