import AnimTestSupport
import Testing

@testable import AnimKit

struct FrameSchedulerTests {
    static func ms(_ v: Double) -> Duration { .nanoseconds(Int64(v * 1_000_000)) }

    @Test func noDriftOver10000Frames() {
        let clock = ManualClock(start: 5_000)
        let frame: Int64 = 33_300_000
        let s = FrameScheduler(durations: [Duration](repeating: .nanoseconds(frame), count: 10), plays: .forever, clock: clock)
        var rng = RandomAccessTests.SplitMix(state: 1)
        for k in 0..<10_000 {
            let t = s.tick()
            #expect(t.frame == k % 10 && t.skipped == 0, "frame \(k)")
            // Deadlines come from the start: frame k+1 is due at exactly start + (k+1) × 33.3 ms.
            #expect(t.nextDeadline == 5_000 + Int64(k + 1) * frame)
            // The player wakes up to 2 ms late; that must not accumulate.
            clock.set(t.nextDeadline! + Int64.random(in: 0..<2_000_000, using: &rng))
        }
        #expect(s.totalSkipped == 0)
    }

    @Test func lateTicksSkipWithoutBurst() {
        let clock = ManualClock()
        let s = FrameScheduler(durations: [Duration](repeating: Self.ms(40), count: 10), plays: .forever, clock: clock)
        #expect(s.tick().frame == 0)
        clock.set(130_000_000)  // 130 ms: frames 1 and 2 were due and are gone
        let t = s.tick()
        #expect(t.frame == 3 && t.skipped == 2 && t.nextDeadline == 160_000_000)
        #expect(s.tick().skipped == 0, "asking again skips nothing")
    }

    @Test func speed() {
        let clock = ManualClock()
        let s = FrameScheduler(durations: [Duration](repeating: Self.ms(100), count: 4), plays: .forever, clock: clock)
        clock.set(50_000_000)
        s.speed = 2  // from 50 ms of animation time on, twice as fast
        #expect(s.tick().nextDeadline == 75_000_000)
        clock.set(80_000_000)
        #expect(s.tick().frame == 1)
        s.speed = 0.5
        let deadline = s.tick().nextDeadline
        #expect(deadline == Int64(260_000_000), "90 ms of animation left at half speed: \(String(describing: deadline))")
    }

    @Test func reverseAndPingPong() {
        let clock = ManualClock()
        let d = [Duration](repeating: Self.ms(10), count: 4)
        let r = FrameScheduler(durations: d, plays: .forever, mode: .reverse, clock: clock)
        var seen: [Int] = []
        for i in 0..<6 {
            clock.set(Int64(i) * 10_000_000)
            seen.append(r.tick().frame)
        }
        #expect(seen == [3, 2, 1, 0, 3, 2])
        clock.set(0)
        let p = FrameScheduler(durations: d, plays: .forever, mode: .pingPong, clock: clock)
        seen = []
        for i in 0..<9 {
            clock.set(Int64(i) * 10_000_000)
            seen.append(p.tick().frame)
        }
        #expect(seen == [0, 1, 2, 3, 2, 1, 0, 1, 2])
    }

    @Test func loopCounts() {
        let clock = ManualClock()
        let s = FrameScheduler(durations: [Self.ms(10), Self.ms(20)], plays: .count(2), clock: clock)
        clock.set(55_000_000)
        // Frames 0 and 1 of the first play and 0 of the second were never shown.
        #expect(s.tick() == .init(frame: 1, nextDeadline: 60_000_000, skipped: 3, finished: false))
        clock.set(60_000_000)
        #expect(s.tick() == .init(frame: 1, nextDeadline: nil, skipped: 0, finished: true))
        clock.set(10_000_000_000)
        #expect(s.tick().finished && s.currentFrame == 1)
        s.plays = .forever
        #expect(!s.tick().finished)
    }

    @Test func pauseAndStep() {
        let clock = ManualClock()
        let s = FrameScheduler(durations: [Duration](repeating: Self.ms(40), count: 5), plays: .forever, clock: clock)
        #expect(s.tick().frame == 0)
        clock.set(50_000_000)
        s.pause()
        clock.set(500_000_000)
        #expect(s.tick() == .init(frame: 1, nextDeadline: nil, skipped: 0, finished: false))
        s.step(by: 1)
        #expect(s.tick().frame == 2 && s.isPaused)
        s.step(by: -2)
        #expect(s.tick().frame == 0)
        s.step(by: -1)
        #expect(s.tick().frame == 0, "not before the first frame")
        s.resume()  // frame 0 started when resumed at 500 ms
        #expect(s.tick().nextDeadline == 540_000_000)
        s.seek(toFrame: 4)
        #expect(s.tick().frame == 4)
        s.restart()
        #expect(s.tick().frame == 0 && s.animationTime == 0)
    }

    @Test func filesPlayTheirOwnDelays() throws {
        // animation-speed.gif: 250, 500, 1000, 2000 ms.
        let source = try Fixtures.source("gif-suite/animation-speed.gif")
        let clock = ManualClock()
        let s = FrameScheduler(durations: source.frames.map(\.duration), plays: source.plays, clock: clock)
        var deadlines: [Int64] = []
        for _ in 0..<4 {
            let t = s.tick()
            deadlines.append(t.nextDeadline!)
            clock.set(t.nextDeadline!)
        }
        #expect(deadlines == [250, 750, 1750, 3750].map { Int64($0) * 1_000_000 })
    }

    @Test func openEndedWaitsForFramesThenGoesOn() {
        let clock = ManualClock()
        let s = FrameScheduler(durations: [Self.ms(40), Self.ms(40)], plays: .forever, clock: clock)
        s.isOpenEnded = true
        #expect(s.tick().frame == 0)
        clock.set(100_000_000)  // past the end of the two known frames
        var t = s.tick()
        #expect(t.frame == 1 && !t.finished && t.nextDeadline == nil && s.isWaitingForFrames, "holds the last frame, no loop")
        clock.set(300_000_000)  // 200 ms later, still nothing
        t = s.tick()
        #expect(t.frame == 1 && t.skipped == 0 && t.nextDeadline == nil)
        s.append(durations: [Self.ms(40), Self.ms(40)])
        t = s.tick()
        #expect(t.frame == 2 && t.skipped == 0 && t.nextDeadline == 340_000_000, "the first new frame is due now")
        clock.set(340_000_000)
        #expect(s.tick().frame == 3)
        // Frames that arrive before the end play on time, with no stall.
        s.append(durations: [Self.ms(40)])
        clock.set(380_000_000)
        #expect(s.tick().frame == 4)
        clock.set(420_000_000)
        #expect(s.tick().frame == 4 && s.isWaitingForFrames)
        // The stream ends: the play loops (forever) from its end.
        s.isOpenEnded = false
        #expect(!s.isWaitingForFrames && s.tick().frame == 0)
        clock.set(460_000_000)
        #expect(s.tick().frame == 1)
    }

    @Test func openEndedSinglePlayFinishesOnlyAfterTheStreamEnds() {
        let clock = ManualClock()
        let s = FrameScheduler(durations: [Self.ms(40)], plays: .count(1), clock: clock)
        s.isOpenEnded = true
        _ = s.tick()
        clock.set(500_000_000)
        #expect(!s.tick().finished)
        s.isOpenEnded = false
        #expect(s.tick().finished)
    }

    @Test func startCurrentFrameNowGivesTheFirstFrameItsWholeDuration() {
        let clock = ManualClock()
        let s = FrameScheduler(durations: [Self.ms(40), Self.ms(40)], plays: .forever, clock: clock)
        #expect(s.tick().frame == 0)
        clock.set(25_000_000)  // decoding and drawing the first frame took 25 ms
        s.startCurrentFrameNow()
        let t = s.tick()
        #expect(t.frame == 0 && t.skipped == 0 && t.nextDeadline == 65_000_000)
        clock.set(65_000_000)
        #expect(s.tick() == FrameScheduler.Tick(frame: 1, nextDeadline: 105_000_000, skipped: 0, finished: false))
    }
}
