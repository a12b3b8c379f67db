import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// Each public `Sendable` type driven from several tasks at once: results
/// equal the ones computed alone, counts add up. Run under ThreadSanitizer
/// by `.ci/run` (`Tools/sanitizers/test.sh thread --filter Concurrency`),
/// which reports any data race.
struct ConcurrencyTests {
    static let tasks = 4

    /// Runs `body(task)` on `tasks` tasks at once and sums what they return.
    static func together(_ body: @escaping @Sendable (Int) throws -> Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for t in 0..<tasks { group.addTask { try body(t) } }
            return try await group.reduce(0, +)
        }
    }

    @Test func imageSourceFromManyTasks() async throws {
        let source = try Fixtures.source("extra/long.gif")
        let reference = try (0..<source.frameCount).map { try Fixtures.source("extra/long.gif").frame(at: $0) }
        let wrong = try await Self.together { t in
            var bad = 0
            for k in 0..<40 {
                let i = (k * 37 + t * 11) % source.frameCount  // seeks in every direction
                if try source.frame(at: i) != reference[i] { bad += 1 }
            }
            return bad
        }
        #expect(wrong == 0, "\(wrong) frames differ when read from \(Self.tasks) tasks")
    }

    @Test func cachedFrameSourceFromManyTasks() async throws {
        let source = try Fixtures.source("extra/long.gif", options: DecodingOptions(decodeAhead: 0))
        let reference = try (0..<source.frameCount).map { try Fixtures.source("extra/long.gif").frame(at: $0) }
        let frames = CachedFrameSource(source: source, limitBytes: 40 * FrameCache.cost(width: 64, height: 48))
        let wrong = try await Self.together { t in
            var bad = 0
            for k in 0..<60 {
                let i = (k * 7 + t * 29) % reference.count
                if try frames.frame(at: i, direction: t % 2 == 0 ? .forward : .backward) != reference[i] { bad += 1 }
            }
            return bad
        }
        #expect(wrong == 0)
        let s = frames.cache.statistics
        #expect(s.hits + s.misses == 4 * 60, "every request counted once (prefetch looks without counting): \(s)")
        #expect(s.bytesInUse <= 40 * FrameCache.cost(width: 64, height: 48))
    }

    @Test func frameCacheFromManyTasks() async throws {
        let cache = FrameCache(frameCount: 64, limitBytes: 16 * FrameCache.cost(width: 8, height: 8))
        let images = (0..<64).map { RGBAImage(width: 8, height: 8, trusting: [UInt8](repeating: UInt8($0), count: 256)) }
        let wrong = try await Self.together { t in
            var bad = 0
            for k in 0..<500 {
                let i = (k * 13 + t * 5) % 64
                if let got = cache.image(at: i) { if got != images[i] { bad += 1 } } else { _ = cache.insert(images[i], at: i) }
            }
            return bad
        }
        #expect(wrong == 0, "a cached image came back changed")
        #expect(cache.statistics.bytesInUse <= 16 * FrameCache.cost(width: 8, height: 8))
    }

    @Test func incrementalSourceFedWhileRead() async throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.url("extra/long.gif")))
        let whole = try ImageSource(data: bytes)
        let reference = try (0..<whole.frameCount).map { try whole.frame(at: $0) }
        let stream = IncrementalImageSource(name: "feed")
        let wrong = try await Self.together { t in
            if t == 0 {
                for start in stride(from: 0, to: bytes.count, by: 997) {
                    stream.append(bytes[start..<min(start + 997, bytes.count)])
                }
                stream.finish()
                return 0
            }
            var bad = 0
            var seen = 0
            while seen < reference.count {
                if case .frame(let image) = try stream.frame(at: seen) {
                    if image != reference[seen] { bad += 1 }
                    seen += 1
                } else if stream.isFinished && stream.frameCount <= seen {
                    bad += 1000  // finished without the frame
                    break
                } else {
                    stream.waitForData(timeoutMs: 10)
                }
            }
            return bad
        }
        #expect(wrong == 0)
        #expect(stream.frameCount == reference.count)
    }

    @Test func manualClockFromManyTasks() async throws {
        let clock = ManualClock(start: 5)
        _ = try await Self.together { _ in
            for _ in 0..<1000 {
                clock.advance(by: 1)
                _ = clock.nanoseconds()
            }
            return 0
        }
        #expect(clock.nanoseconds() == 5 + 4 * 1000)
    }

    /// One `PlaybackFrames` iterated by several tasks at once: each gets
    /// every frame, right, through the one cache they share.
    @Test func playbackFromManyTasks() async throws {
        let source = try Fixtures.source("extra/long.gif")
        let reference = try (0..<source.frameCount).map { try source.reopened().frame(at: $0) }
        let frames = try source.playback(plays: .count(1), clock: ManualClock())
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    var (count, wrong) = (0, 0)
                    for try await f in frames {
                        count += 1
                        if f.image != reference[f.index] { wrong += 1 }
                    }
                    return (count, wrong)
                }
            }
            return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.1 == 0 }, "\(results)")
        // The clock is shared: a task may find frames already past when it
        // looks, so it gets at most every frame, and at least the last.
        #expect(results.allSatisfy { $0.0 >= 1 && $0.0 <= source.frameCount }, "\(results)")
    }
}
