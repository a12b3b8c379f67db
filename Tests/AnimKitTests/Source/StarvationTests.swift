import Testing

@testable import AnimKit

/// Decoding ahead stands aside while its workers are kept off a core.
struct StarvationTests {
    @Test func threeStarvedDecodesPauseThirtyTwoSteps() {
        var s = Starvation()
        s.record(step: 0, wall: 3_000_000, cpu: 1_000_000)
        s.record(step: 1, wall: 3_000_000, cpu: 1_000_000)
        #expect(!s.isPausing)
        s.record(step: 2, wall: 3_000_000, cpu: 1_000_000)
        #expect(s.isPausing)
        var paused = 0
        while s.pauses() { paused += 1 }
        #expect(paused == 32)
        let again = s.pauses()
        #expect(!again)
    }

    @Test func aDecodeOnACoreOfItsOwnClearsTheStrikes() {
        var s = Starvation()
        s.record(step: 0, wall: 3_000_000, cpu: 1_000_000)
        s.record(step: 1, wall: 3_000_000, cpu: 1_000_000)
        s.record(step: 2, wall: 1_100_000, cpu: 1_000_000)
        s.record(step: 3, wall: 3_000_000, cpu: 1_000_000)
        #expect(!s.isPausing)
        // Short decodes: 0.2 ms of slack before a wait counts.
        for i in 4..<10 { s.record(step: i, wall: 230_000, cpu: 20_000) }
        #expect(!s.isPausing)
    }
}
