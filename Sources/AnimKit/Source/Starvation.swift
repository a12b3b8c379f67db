/// Whether decoding ahead pays on this machine now: a worker kept off a core
/// makes the compositor wait for decodes it could have done itself
/// (`DecodeAheadPolicy.starved`).
struct Starvation {
    private var strikes = 0
    /// Calls to `schedule` left that hand nothing over.
    private(set) var paused = 0

    /// True (and one fewer left) while nothing is to be handed over.
    mutating func pauses() -> Bool {
        guard paused > 0 else { return false }
        paused -= 1
        return true
    }

    /// Counts a decode's wall and CPU time, in nanoseconds.
    mutating func record(wall: Int64, cpu: Int64) {
        let policy = DecodeAheadPolicy.starved
        strikes = wall > policy.ratio * cpu + policy.slack ? strikes + 1 : 0
        if strikes >= policy.strikes {
            strikes = 0
            paused = policy.pause
        }
    }
}
