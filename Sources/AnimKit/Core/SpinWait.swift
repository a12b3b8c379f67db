#if canImport(Glibc)
    import Glibc
#endif

/// Looking for a condition for a little while before sleeping on it: a
/// thread that slept can take long to wake on a virtual machine, and
/// decode-ahead, which hands over its next step about when the last is
/// done, would lose its gain to wake-ups. The condition is read from an
/// atomic: `DispatchSemaphore.wait(timeout: .now())` is slow on Linux.
enum Spin {
    /// Polls `ready` for up to `duration` nanoseconds, yielding the core
    /// between polls; whether it became true. It stops early once this
    /// thread got less than 3/4 of the time spinning: another thread (maybe
    /// the one it waits for) wants the core, and sleeping is what helps.
    static func until(_ duration: Int64, _ ready: () -> Bool) -> Bool {
        if ready() { return true }
        guard duration > 0 else { return false }
        let (start, cpu) = (now(), now(CLOCK_THREAD_CPUTIME_ID))
        while true {
            if ready() { return true }
            let wall = now() - start
            if wall >= duration { return false }
            if wall > 20_000 && 4 * (now(CLOCK_THREAD_CPUTIME_ID) - cpu) < 3 * wall { return false }
            sched_yield()
        }
    }

    /// The monotonic clock (or another), in nanoseconds.
    static func now(_ clock: clockid_t = CLOCK_MONOTONIC) -> Int64 {
        var t = timespec()
        clock_gettime(clock, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}
