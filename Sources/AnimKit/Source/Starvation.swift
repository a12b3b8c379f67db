/// Whether decoding ahead pays on this machine now. On two cores with
/// another program busy on one, a worker thread gets half a core: a decode
/// takes twice its CPU time and the compositor waits for it, and decoding
/// ahead made small files 1.1–1.4× slower than one thread
/// (`Tools/bench/busy.sh`). A decode whose wall time is more than twice
/// its CPU time (and 0.2 ms) was kept off a core; after three such decodes
/// in a row, nothing is handed over for the next 32 steps, which the
/// compositor decodes itself; then decoding ahead is tried again.
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

    mutating func record(step: Int, wall: Int64, cpu: Int64) {
        if wall > 2 * cpu + 200_000 {
            strikes += 1
            if strikes >= 3 {
                strikes = 0
                paused = 32
            }
        } else {
            strikes = 0
        }
    }

    /// Whether it is pausing now (for tests).
    var isPausing: Bool { paused > 0 }
}
