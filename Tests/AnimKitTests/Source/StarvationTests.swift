import Testing

@testable import AnimKit

/// Decoding ahead stands aside while its workers are kept off a core.
struct StarvationTests {
    @Test func threeStarvedDecodesPauseThirtyTwoSteps() {
        var s = Starvation()
        s.record(wall: 3_000_000, cpu: 1_000_000)
        s.record(wall: 3_000_000, cpu: 1_000_000)
        #expect(s.paused == 0)
        s.record(wall: 3_000_000, cpu: 1_000_000)
        #expect(s.paused == 32)
        var paused = 0
        while s.pauses() { paused += 1 }
        #expect(paused == 32)
        let again = s.pauses()
        #expect(!again)
    }

    @Test func aDecodeOnACoreOfItsOwnClearsTheStrikes() {
        var s = Starvation()
        s.record(wall: 3_000_000, cpu: 1_000_000)
        s.record(wall: 3_000_000, cpu: 1_000_000)
        s.record(wall: 1_100_000, cpu: 1_000_000)
        s.record(wall: 3_000_000, cpu: 1_000_000)
        #expect(s.paused == 0)
        // Short decodes: 0.2 ms of slack before a wait counts.
        for _ in 4..<10 { s.record(wall: 230_000, cpu: 20_000) }
        #expect(s.paused == 0)
    }
}
