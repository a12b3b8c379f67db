/// A `Clock` that moves only when told to (tests, rendering offline):
/// sleeping on it moves it on to the deadline at once. Its time is behind a
/// lock: one thread may advance it while another reads.
public final class ManualClock: Clock, Sendable {
    /// A point in the clock's time: how long after its zero.
    public struct Instant: InstantProtocol {
        /// The time since the clock's zero.
        public var offset: Duration
        /// The instant `offset` after the clock's zero.
        public init(offset: Duration) { self.offset = offset }
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `a` comes before `b`.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let now_: Locked<Int64>
    /// A clock that reads `start` nanoseconds until it is moved.
    public init(start: Int64 = 0) { now_ = Locked(start) }
    /// The time now.
    public var now: Instant { Instant(offset: .nanoseconds(nanoseconds())) }
    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }
    /// Moves the time on to `deadline` at once (after a cancellation check).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        moveOn(to: deadline.offset.nanosecondsValue)
    }

    /// The time now, in nanoseconds.
    public func nanoseconds() -> Int64 { now_.withLock { $0 } }
    /// Moves the time on by `ns` nanoseconds.
    public func advance(by ns: Int64) { now_.withLock { $0 += ns } }
    /// Sets the time to `ns` nanoseconds (it may go back).
    public func set(_ ns: Int64) { now_.withLock { $0 = ns } }
    /// Moves the time on to `deadline` nanoseconds, never back.
    func moveOn(to deadline: Int64) { now_.withLock { $0 = max($0, deadline) } }
}
