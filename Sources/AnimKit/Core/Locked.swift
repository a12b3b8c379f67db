/// A value reachable only with its lock held: `withLock` is the one way in,
/// so unlocked access does not compile.
///
/// `@unchecked Sendable`: the value is private and every access goes
/// through `lock`, which `withLock` takes and releases around the body.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
