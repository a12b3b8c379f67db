import AnimTestSupport
import Dispatch
import Testing

@testable import AnimKit

/// A step the compositor reaches before any worker has started it is
/// taken back and decoded where it is needed; a started one is waited for.
struct PrefetchStealTests {
    /// Counts its decodes; every pixel of a patch is 0x01020304.
    final class CountingDecoder: StepDecoder, @unchecked Sendable {
        let decodes = Locked(0)
        let writesMasked = false
        func decode(step index: Int, into target: PixelTarget) throws {
            decodes.withLock { $0 += 1 }
            for p in 0..<(200 * 200) { target.base.storeBytes(of: UInt32(0x0102_0304), toByteOffset: p * 4, as: UInt32.self) }
        }
        func dataRange(step index: Int) -> Range<Int> { 0..<10_000 }
    }

    static let steps = (0..<3).map { _ in
        Step(rect: Rect(x: 0, y: 0, width: 200, height: 200), dispose: .none, blend: .source, hasAlpha: false, isKey: true)
    }

    @Test func aStepNotStartedIsTakenBack() throws {
        let decoder = CountingDecoder()
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        let held: @Sendable (Int64, @escaping @Sendable () -> Void) -> Void = { queue.async(execute: $1) }
        let prefetcher = try #require(StepPrefetcher(decoder: decoder, steps: Self.steps, depth: 2, run: held))
        prefetcher.schedule(0...1)
        #expect(prefetcher.take(0) == nil)  // no worker has it: decode it here
        queue.resume()
        queue.sync {}  // the workers have run: the dropped one did nothing
        let decoded = try #require(prefetcher.take(1))  // a worker ran it
        #expect(decoded.error == nil)
        #expect(decoded.patch.load(fromByteOffset: 4 * 39_999, as: UInt32.self) == 0x0102_0304)
        prefetcher.finished(decoded)
        #expect(decoder.decodes.withLock { $0 } == 1)
    }
}
