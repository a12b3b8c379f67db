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

    /// Frame 59 of a 1080x1080 GIF takes every step before it: cancelled
    /// 50 ms in, the task ends at once, not when the decode does.
    @Test func cancellingDuringADecodeReturnsAtOnce() async throws {
        let source = try ImageSource(path: path, options: DecodingOptions(decodeAhead: 0))
        let whole = ContinuousClock().measure { _ = try? source.reopened().frame(at: 59) }
        let task = Task { try await source.decodeFrame(at: 59) }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        let waited = ContinuousClock.now - start
        #expect(waited < whole / 2, "waited \(waited) of a \(whole) decode")
    }
}
