import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// `ImageSource.playback`: frames delivered when due (a `ManualClock`
/// moved by the sequence itself, or the real clock), skips for a late
/// consumer, plays, a still image, cancellation.
struct PlaybackAsyncTests {
    /// An in-memory GIF of `count` frames of `ms` milliseconds, each a
    /// different grey.
    static func animation(_ count: Int, ms: Int, plays: Int = 0) throws -> ImageSource {
        var options = EncodingOptions()
        options.plays = plays
        let out = try ImageDestination(format: .gif, options: options)
        for f in 0..<count {
            try out.add(
                RGBAImage(
                    width: 4, height: 4,
                    trusting: [UInt8](repeating: UInt8(f * 40), count: 64).enumerated().map {
                        $0.offset % 4 == 3 ? 255 : $0.element
                    }), duration: .milliseconds(ms))
        }
        try out.finish()
        return try ImageSource(data: try #require(out.data))
    }

    @Test func everyFrameOnTimeWithAManualClock() async throws {
        let source = try Fixtures.source("gif-suite/animation-speed.gif")
        let clock = ManualClock(start: 1_000)
        var got: [PlaybackFrame] = []
        for try await frame in try source.playback(plays: .count(1), clock: clock) { got.append(frame) }
        #expect(got.map(\.index) == Array(0..<source.frameCount))
        #expect(got.allSatisfy { $0.skipped == 0 })
        for (i, f) in got.enumerated() { #expect(f.image == (try source.frame(at: i)), "frame \(i)") }
        // Each element came at its start: the deadlines step by the durations.
        let starts = got.dropLast().map { $0.nextDeadline! }
        let durations = source.frames.map { max($0.duration.nanosecondsValue, 1_000_000) }
        var expected: [Int64] = []
        var t: Int64 = 1_000
        for d in durations.dropLast() {
            t += d
            expected.append(t)
        }
        #expect(starts == expected)
        let end = t + durations.last!
        #expect(got.last?.nextDeadline == end, "the last frame's time ends the play")
        #expect(clock.nanoseconds() == end, "the sequence ended when the last frame's time was over, no later")
    }

    @Test func aLateConsumerGetsTheFrameDueNow() async throws {
        let source = try Self.animation(6, ms: 100)
        let clock = ManualClock()
        var it = try source.playback(plays: .count(1), clock: clock).makeAsyncIterator()
        let first = try #require(try await it.next())
        #expect(first.index == 0)
        clock.advance(by: 350_000_000)  // frames 1 and 2 came and went; 3 is due
        let late = try #require(try await it.next())
        #expect(late.index == 3 && late.skipped == 2)
        #expect(try await it.next()?.index == 4)
    }

    @Test func playsAndModes() async throws {
        let source = try Self.animation(3, ms: 50)
        var twice: [Int] = []
        for try await f in try source.playback(plays: .count(2), clock: ManualClock()) { twice.append(f.index) }
        #expect(twice == [0, 1, 2, 0, 1, 2])
        var back: [Int] = []
        for try await f in try source.playback(plays: .count(1), mode: .reverse, clock: ManualClock()) { back.append(f.index) }
        #expect(back == [2, 1, 0])
    }

    @Test func aStillImageComesOnce() async throws {
        let source = try ImageSource(data: try Fixtures.bytes("metadata/icc_profile.png"))
        var count = 0
        for try await _ in try source.playback(clock: ManualClock()) { count += 1 }
        #expect(count == 1)
    }

    /// Frames of 1000 s, forever: without the cancellation the task would
    /// not end (the time limit fails it); with it, it ends after frame 0.
    /// The task is cancelled once frame 0 has arrived, however slow the
    /// machine (a sanitizer build decodes it in far more than 200 ms); the
    /// limit is generous because a loaded run can keep an async test
    /// waiting for a thread for over a minute.
    @Test(.timeLimit(.minutes(3))) func cancellingTheTaskEndsTheSequence() async throws {
        let source = try Self.animation(3, ms: 1_000_000)
        let (firstFrame, arrived) = AsyncStream.makeStream(of: Void.self)
        let task = Task { () -> Int in
            var n = 0
            for try await _ in try source.playback() {
                n += 1
                arrived.yield()
            }
            return n
        }
        for await _ in firstFrame { break }
        task.cancel()
        let delivered = try await task.value
        #expect(delivered == 1, "frame 0, then cancelled while waiting for frame 1")
    }

    /// Cancelled before frame 0 is decoded: the sequence ends without a
    /// frame and without an error, as `next()` promises.
    @Test func cancellingBeforeTheFirstFrameEndsWithoutAnError() async throws {
        let source = try Self.animation(3, ms: 1_000_000)
        let task = Task { () -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            var n = 0
            for try await _ in try source.playback() { n += 1 }
            return n
        }
        #expect(try await task.value == 0)
    }

    @Test func theRealClockWaitsForEachFrame() async throws {
        let source = try Self.animation(5, ms: 20)
        let start = ContinuousClock.now
        var n = 0
        var skipped = 0
        for try await f in try source.playback(plays: .count(1)) {
            n += 1
            skipped += f.skipped
        }
        #expect(n + skipped == 5, "each frame delivered or, on a busy machine, skipped")
        #expect(ContinuousClock.now - start >= .milliseconds(80), "frame 4 starts 80 ms after frame 0")
    }
}
