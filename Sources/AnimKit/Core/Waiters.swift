import Dispatch

/// Threads waiting for a value behind a lock to change, as on a condition
/// variable: a waiter parks a semaphore of its own here with the lock held
/// and waits on it after letting go; whoever changes the value calls
/// `wakeAll()` with the lock held. Kept inside the guarded value, so that
/// parking and waking cannot race.
struct Waiters {
    private var parked: [DispatchSemaphore] = []

    /// A semaphore to wait on once the lock is released; signalled by the next `wakeAll()`.
    mutating func park() -> DispatchSemaphore {
        let s = DispatchSemaphore(value: 0)
        parked.append(s)
        return s
    }

    /// Takes back `semaphore`, parked by a waiter that stopped waiting (it
    /// timed out), so that polling does not pile up semaphores.
    mutating func unpark(_ semaphore: DispatchSemaphore) {
        parked.removeAll { $0 === semaphore }
    }

    /// Releases every parked waiter.
    mutating func wakeAll() {
        for s in parked { s.signal() }
        parked.removeAll()
    }
}
