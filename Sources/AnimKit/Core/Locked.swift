#if canImport(Glibc)
    import Glibc
#endif

/// A value reachable only with its lock held: `withLock` is the one way in,
/// so unlocked access does not compile. The code base's one lock idiom.
///
/// On a pthread mutex rather than the Synchronization module's `Mutex`:
/// on Linux that `Mutex` locks through futex calls ThreadSanitizer does not
/// see, so it would report every access it guards as a race.
package final class Locked<Value> {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var guarded: Value

    /// A lock around `value`.
    package init(_ value: Value) {
        guarded = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&guarded)
    }

    /// The value now (a copy, read under the lock).
    package var value: Value { withLock { $0 } }

    /// Replaces the value.
    package func set(_ newValue: Value) { withLock { $0 = newValue } }
}

/// `@unchecked Sendable` when the value is: the value is private and every
/// access goes through the mutex, which `withLock` holds around its closure.
extension Locked: @unchecked Sendable where Value: Sendable {}
