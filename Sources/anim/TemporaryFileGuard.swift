import AnimKit
import AnimTerminal

/// Ctrl-C, SIGTERM or SIGHUP while writing: every temporary file being
/// written (several in a batch) is removed, a progress line is ended
/// (unlink, write and _exit: async-signal-safe) and the exit status is
/// 128 + the signal, so an interrupted command leaves nothing behind.
enum TemporaryFileGuard {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    static let capacity = 256
    /// A temporary file's place in `paths`.
    typealias Slot = Int

    /// The paths being written, read by the handler without a lock: a
    /// slot is set after its string is made and cleared before it is freed.
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    /// Slots in use and the handlers to put back when none is.
    private static let state = Locked((used: Set<Int>(), previous: [(Int32, __sighandler_t?)]()))

    /// Makes the destination with the handlers in place and the signals
    /// held back on this thread, so that no moment passes between its
    /// temporary file appearing and the guard knowing it (a SIGTERM in that
    /// gap left the file behind). `slot` is for `release`.
    static func protect(_ slot: inout Slot?, _ make: () throws -> ImageDestination) throws -> ImageDestination {
        var held = sigset_t()
        var previous = sigset_t()
        sigemptyset(&held)
        for s in signals { sigaddset(&held, s) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            Terminal.unblockSignals(signals)  // a parent's Dispatch thread may have blocked them
        }
        let destination = try make()
        if let temporary = destination.temporaryPath { slot = register(temporary) }
        return destination
    }

    /// Watches `path` (a temporary file; nil: only a progress line) until
    /// `release`; nil when every slot is taken (the file is then not
    /// removed on a signal).
    static func register(_ path: String?) -> Slot? {
        state.withLock { s -> Slot? in
            if s.used.isEmpty { s.previous = install() }
            guard let free = (0..<capacity).first(where: { !s.used.contains($0) }) else { return nil }
            s.used.insert(free)
            paths[free] = path.map { strdup($0) } ?? nil
            return free
        }
    }

    /// Stops watching; the handlers go back once no file is watched.
    static func release(_ slot: Slot?) {
        guard let slot else { return }
        state.withLock { s in
            let p = paths[slot]
            paths[slot] = nil
            free(p)
            s.used.remove(slot)
            if s.used.isEmpty {
                for (signo, handler) in s.previous { signal(signo, handler) }
                s.previous = []
            }
        }
    }

    private static func install() -> [(Int32, __sighandler_t?)] {
        signals.map { s in
            // A signal ignored by the parent (SIGHUP under nohup) stays ignored.
            let before = signal(s) { signo in
                for i in 0..<TemporaryFileGuard.capacity {
                    if let p = TemporaryFileGuard.paths[i] { unlink(p) }
                }
                if Progress.lineShown.load(ordering: .relaxed) { _ = write(2, "\r\u{1B}[K", 4) }
                _exit(128 + signo)
            }
            if let b = before, unsafeBitCast(b, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(s, SIG_IGN)
            }
            return (s, before)
        }
    }
}
