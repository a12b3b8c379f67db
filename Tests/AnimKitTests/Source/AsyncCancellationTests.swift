import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// Issue 27: `decodeFrame(at:) async` ignored cancellation: a cancelled
/// task waited for the whole decode and got the frame.
struct AsyncCancellationTests {
    let path = Repository.path("Tools/bench/corpus/public/gif/glide-opaque_gif.gif")

    @Test func aCancelledTaskDoesNotDecode() async throws {
        let source = try ImageSource(path: path, options: DecodingOptions(decodeAhead: 0))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await source.decodeFrame(at: 0)
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    /// Every frame of a 1080x1080 GIF, one after the other (seconds in a
    /// debug build): cancelled 50 ms in, a decode throws
    /// `CancellationError` (all 60 came back before). Not timed: under a
    /// loaded test run the continuation can take a while to resume.
    @Test func cancellingDuringDecodesThrows() async throws {
        let source = try ImageSource(path: path, options: DecodingOptions(decodeAhead: 0))
        let task = Task {
            for i in 0..<source.frameCount { _ = try await source.decodeFrame(at: i) }
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
