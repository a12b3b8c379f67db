/// Whether decoding ahead pays on this machine now: a worker thread kept
/// off a core (another program busy on it) makes the compositor wait for
/// decodes it could have done itself. After `starvedStrikes` starved
/// decodes in a row, nothing is handed over for the next `starvedPause`
/// steps, which the compositor decodes itself; then decoding ahead is
/// tried again (`DecodeAheadPolicy`).
struct Starvation {
    private var strikes = 0
    /// Calls to `schedule` left that hand nothing over.
    private var paused = 0

    /// True (and one fewer left) while nothing is to be handed over.
    mutating func pauses() -> Bool {
        guard paused > 0 else { return false }
        paused -= 1
        return true
    }

    /// Counts a decode's wall and CPU time, in nanoseconds.
    mutating func record(step: Int, wall: Int64, cpu: Int64) {
        let policy = DecodeAheadPolicy.standard
        guard wall > policy.starvedRatio * cpu + policy.starvedSlack else {
            strikes = 0
            return
        }
        strikes += 1
        if strikes >= policy.starvedStrikes {
            strikes = 0
            paused = policy.starvedPause
        }
    }

    /// Whether it is pausing now (for tests).
    var isPausing: Bool { paused > 0 }
}
