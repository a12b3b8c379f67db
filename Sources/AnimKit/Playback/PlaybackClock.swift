import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a `FrameScheduler` reads the time: monotonic nanoseconds from an
/// arbitrary origin. Tests drive a `ManualClock` by hand.
public protocol PlaybackClock: AnyObject, Sendable {
    func nanoseconds() -> Int64
    /// Returns once `nanoseconds()` has reached `deadline`.
    func sleep(until deadline: Int64)
    /// Suspends the calling task (not its thread) until `nanoseconds()` has
    /// reached `deadline`; throws `CancellationError` if the task is
    /// cancelled meanwhile.
    func suspend(until deadline: Int64) async throws
}

extension PlaybackClock {
    /// Sleeps with `nanosleep`, resuming after signals.
    public func sleep(until deadline: Int64) {
        let wait = deadline - nanoseconds()
        guard wait > 0 else { return }
        var ts = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
        var rest = timespec()
        while nanosleep(&ts, &rest) != 0 && errno == EINTR { ts = rest }
    }

    /// `Task.sleep` for the time left (a clock that is not the system's
    /// monotonic one is read again after the sleep, until it has come).
    public func suspend(until deadline: Int64) async throws {
        while true {
            let wait = deadline - nanoseconds()
            guard wait > 0 else { return try Task.checkCancellation() }
            try await Task.sleep(nanoseconds: UInt64(wait))
        }
    }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`). Stateless.
public final class MonotonicClock: PlaybackClock, Sendable {
    /// The system's monotonic clock.
    public init() {}
    /// `CLOCK_MONOTONIC` now, in nanoseconds.
    public func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Sleeps until the absolute deadline (`TIMER_ABSTIME`), so time spent
    /// between reading the clock and sleeping is not added to the wait.
    public func sleep(until deadline: Int64) {
        guard deadline > nanoseconds() else { return }
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

/// A clock that moves only when told to (tests, rendering offline). Its
/// time is behind a lock: one thread may advance it while another reads.
public final class ManualClock: PlaybackClock, Sendable {
    private let now: Mutex<Int64>
    /// A clock that reads `start` nanoseconds until it is moved.
    public init(start: Int64 = 0) { now = Mutex(start) }
    /// The time now, in nanoseconds.
    public func nanoseconds() -> Int64 { now.withLock { $0 } }
    /// Moves the time on by `ns` nanoseconds.
    public func advance(by ns: Int64) { now.withLock { $0 += ns } }
    /// Sets the time to `ns` nanoseconds (it may go back).
    public func set(_ ns: Int64) { now.withLock { $0 = ns } }
    /// Moves the time on to `deadline` at once.
    public func sleep(until deadline: Int64) { now.withLock { $0 = max($0, deadline) } }
    /// Moves the time on to `deadline` at once (after a cancellation check).
    public func suspend(until deadline: Int64) async throws {
        try Task.checkCancellation()
        sleep(until: deadline)
    }
}
