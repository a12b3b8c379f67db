import AnimTestSupport
import Dispatch
import Testing

@testable import AnimKit

/// Small steps are handed over in batches, one hand-over for many; the
/// worker decodes a batch from its last step back while the compositor's
/// thread takes back the steps it reaches first, so each step is decoded
/// once, by one of them.
struct PrefetchBatchTests {
    /// Writes the step's index into every pixel, and counts its decodes.
    final class IndexDecoder: StepDecoder, @unchecked Sendable {
        let decoded = Locked<[Int]>([])
        let writesMasked = false
        func decode(step index: Int, into target: PixelTarget) throws {
            decoded.withLock { $0.append(index) }
            for p in 0..<(40 * 40) { target.base.storeBytes(of: UInt32(index), toByteOffset: p * 4, as: UInt32.self) }
        }
        func dataRange(step index: Int) -> Range<Int> { (index * 100)..<(index * 100 + 100) }
    }

    /// Twelve 40×40 steps of 100 bytes: each too small to hand over alone,
    /// together worth it (19,200 pixels).
    static let steps = (0..<12).map { _ in
        Step(rect: Rect(x: 0, y: 0, width: 40, height: 40), dispose: .none, blend: .source, hasAlpha: false, isKey: false)
    }

    /// A prefetcher whose workers wait in `queue` until it is resumed.
    static func held(_ decoder: StepDecoder, _ queue: DispatchQueue) throws -> StepPrefetcher {
        queue.suspend()
        let run: @Sendable (Int64, @escaping @Sendable () -> Void) -> Void = { queue.async(execute: $1) }
        return try #require(StepPrefetcher(decoder: decoder, steps: steps, depth: 2, run: run))
    }

    @Test func theWorkerAndTheCompositorMeetInABatch() throws {
        let decoder = IndexDecoder()
        let queue = DispatchQueue(label: "held")
        let prefetcher = try Self.held(decoder, queue)
        prefetcher.schedule(0...11)
        #expect(prefetcher.take(0) == nil)  // no worker yet: the compositor decodes 0 and 1
        #expect(prefetcher.take(1) == nil)
        queue.resume()
        queue.sync {}
        // The worker went from 11 back to 2, where the taken-back steps began.
        #expect(decoder.decoded.withLock { $0 } == Array((2...11).reversed()))
        for s in 2...11 {
            let decoded = try #require(prefetcher.take(s))
            #expect(decoded.error == nil && !decoded.isAlone)
            #expect(decoded.patch.count >= 40 * 40 * 4)
            #expect(decoded.patch.load(fromByteOffset: 4 * 1599, as: UInt32.self) == UInt32(s))
            prefetcher.finished(decoded)
        }
        #expect(prefetcher.take(11) == nil)  // all taken: the batch is gone
    }

    @Test func aFileOfStepsTooSmallEvenTogetherIsNotDecodedAhead() {
        let few = Array(Self.steps.prefix(3))  // 4,800 pixels, 300 bytes
        #expect(StepPrefetcher(decoder: IndexDecoder(), steps: few, depth: 2) == nil)
    }

    /// A step that fails ends the worker's run: it is reported when taken,
    /// and the steps before it, never decoded, are left to the caller.
    @Test func aFailedStepEndsTheBatchThere() throws {
        final class FailingDecoder: StepDecoder, @unchecked Sendable {
            let writesMasked = false
            func decode(step index: Int, into target: PixelTarget) throws {
                if index == 7 { throw AnimError(file: "f", frame: index, CommonProblem.fileChanged) }
            }
            func dataRange(step index: Int) -> Range<Int> { 0..<100 }
        }
        let queue = DispatchQueue(label: "held")
        let prefetcher = try Self.held(FailingDecoder(), queue)
        prefetcher.schedule(0...11)
        queue.resume()
        queue.sync {}
        #expect(prefetcher.take(6) == nil)  // before the failure: not decoded
        let failed = try #require(prefetcher.take(7))
        #expect(failed.error == AnimError(file: "f", frame: 7, CommonProblem.fileChanged))
        prefetcher.finished(failed)
    }
}
