#if canImport(Glibc)
    import Glibc
#endif

/// A value that is not `Sendable` (the frame cursor: a compositor, canvases
/// and codec handles), reachable only with its lock held: `withLock` is the
/// one way in, so unlocked access does not compile. State that is
/// `Sendable` uses the standard library's `Mutex` instead, whose `sending`
/// rules refuse a closure that lends the state's buffers to the caller.
///
/// `@unchecked Sendable`: the value is private and every access goes
/// through the mutex, which `withLock` takes and releases around its
/// closure; the closure must not let the value escape (the cursor's
/// callers only read pixels inside it).
final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
