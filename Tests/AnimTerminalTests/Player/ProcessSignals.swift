import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Signal dispositions are the process's: a test that changes them (an
/// interactive player installs its restoring handlers, a test its own
/// recorder) runs under this lock, so that no other such test sees its
/// handlers, and puts back what it found.
enum ProcessSignals {
    static let lock = NSLock()
    /// Every signal the player or a test here handles.
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGPIPE, SIGWINCH, SIGCONT, SIGTSTP]

    /// Runs `body` alone among such tests, with the dispositions put back after.
    static func isolated<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        var saved: [sigaction] = Array(repeating: sigaction(), count: handled.count)
        for (i, s) in handled.enumerated() { sigaction(s, nil, &saved[i]) }
        defer { for (i, s) in handled.enumerated() { sigaction(s, &saved[i], nil) } }
        return try body()
    }
}
