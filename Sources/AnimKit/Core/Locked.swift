/// A value reachable only with its lock held: `withLock` is the one way in,
/// so unlocked access does not compile. A thread may wait for the value to
/// change (`withLock(after:)`); `withLock` wakes waiters when it returns.
///
/// `@unchecked Sendable`: the value is private and every access goes
/// through `lock`, which each `withLock` form takes and releases around its
/// closures; no access to the value is held while a thread waits.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held, then wakes any thread
    /// waiting in `withLock(after:)`.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer {
            lock.broadcast()
            lock.unlock()
        }
        return try body(&value)
    }

    /// Waits until `ready` says yes (checked with the lock held, after each
    /// change), then runs `body` under the same hold. With `timeoutMs`, waits
    /// at most about that long in all, then runs `body` whatever `ready` says.
    func withLock<R>(after ready: (Value) -> Bool, timeoutMs: Int? = nil, _ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer {
            lock.broadcast()
            lock.unlock()
        }
        if let timeoutMs {
            let deadline = SuspendingClock.now.advanced(by: .milliseconds(timeoutMs))
            while !ready(value) {
                let left = SuspendingClock.now.duration(to: deadline)
                if left <= .zero { break }
                lock.wait(milliseconds: max(1, Int(left.nanosecondsValue / 1_000_000)))
            }
        } else {
            while !ready(value) { lock.wait() }
        }
        return try body(&value)
    }
}
