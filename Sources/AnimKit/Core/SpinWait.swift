#if canImport(Glibc)
    import Glibc
#endif

/// Looking for a condition for a little while before sleeping on it. On a
/// virtual machine a thread that slept, its processor halted, took from
/// tens of microseconds to 2.5 ms to wake, and decode-ahead, which hands
/// over its next step about when the last is done, lost most of its gain
/// to wake-ups (`Tools/bench/public-decode.py`).
///
/// The condition is read from an atomic, not with
/// `DispatchSemaphore.wait(timeout: .now())`: on Linux that call took 70 µs.
enum Spin {
    /// Polls `ready` for up to `duration` nanoseconds, yielding the core
    /// to any other thread with work on it between polls; whether it
    /// became true.
    static func until(_ duration: Int64, _ ready: () -> Bool) -> Bool {
        if ready() { return true }
        guard duration > 0 else { return false }
        let start = now()
        while now() - start < duration {
            if ready() { return true }
            sched_yield()
        }
        return ready()
    }

    /// The monotonic clock, in nanoseconds.
    static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}
