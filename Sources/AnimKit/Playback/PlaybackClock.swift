#if canImport(Glibc)
    import Glibc
#endif

/// Where playback reads the time: any standard `Clock` counted in
/// `Duration` (`SuspendingClock` for a real play, which stands still while
/// the machine sleeps as `CLOCK_MONOTONIC` does; `ManualClock` in tests),
/// read as nanoseconds. A small wrapper rather than generics over `Clock`:
/// the scheduler, the player and its panes keep one non-generic type, and a
/// player's loop runs on a thread of its own and needs a blocking sleep,
/// which `Clock` (async only) does not have.
package struct PlaybackClock: Sendable {
    private let read: @Sendable () -> Int64
    private let block: @Sendable (Int64) -> Void
    private let wait: @Sendable (Int64) async throws -> Void

    /// Reads `clock`: a `ManualClock` as it says, any other clock in
    /// nanoseconds since now.
    package init(_ clock: any Clock<Duration>) {
        if let manual = clock as? ManualClock {
            read = { manual.nanoseconds() }
            block = { deadline in manual.moveOn(to: deadline) }
            wait = { deadline in
                try Task.checkCancellation()
                manual.moveOn(to: deadline)
            }
        } else {
            (read, block, wait) = Self.reading(clock)
        }
    }

    private static func reading<C: Clock<Duration>>(_ clock: C) -> (
        @Sendable () -> Int64, @Sendable (Int64) -> Void, @Sendable (Int64) async throws -> Void
    ) {
        let origin = clock.now
        let read: @Sendable () -> Int64 = { origin.duration(to: clock.now).nanosecondsValue }
        return (
            read,
            { deadline in
                // Sleeps with `nanosleep` for what is left, again after a signal.
                while case let left = deadline - read(), left > 0 {
                    var ts = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
                    nanosleep(&ts, nil)
                }
            },
            { deadline in
                try Task.checkCancellation()
                try await clock.sleep(until: origin.advanced(by: .nanoseconds(deadline)), tolerance: nil)
            }
        )
    }

    /// The time now, in nanoseconds.
    package func nanoseconds() -> Int64 { read() }
    /// Returns once `nanoseconds()` has reached `deadline` (a manual clock
    /// is moved on to it).
    package func sleep(until deadline: Int64) { block(deadline) }
    /// Suspends the calling task (not its thread) until `nanoseconds()` has
    /// reached `deadline`; throws `CancellationError` if the task is
    /// cancelled meanwhile.
    package func suspend(until deadline: Int64) async throws { try await wait(deadline) }
}
