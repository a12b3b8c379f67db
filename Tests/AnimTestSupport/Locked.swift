import Synchronization

/// A value shared between threads, reached only through its lock
/// (swift-nio's `NIOLockedValueBox`): the test helpers' one lock idiom.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with the value, under the lock.
    public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }

    /// The value now.
    public var value: Value { mutex.withLock { $0 } }

    /// Replaces the value.
    public func set(_ value: Value) { mutex.withLock { $0 = value } }
}
