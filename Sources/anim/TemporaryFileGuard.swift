import AnimKit
import AnimTerminal

/// Ctrl-C, SIGTERM or SIGHUP while anim writes: every temporary file being
/// written (`TemporaryFiles`: several in a batch, a frame's in `extract`,
/// the smaller rewrite of `optimize`) is removed, a progress line is ended
/// (unlink, write and _exit: async-signal-safe) and the exit status is
/// 128 + the signal, so an interrupted command leaves nothing behind. The
/// handlers are in place while anything holds the guard (every command but
/// `play`, which restores the terminal on its own).
enum TemporaryFileGuard {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// A hold on the guard, for `release`.
    typealias Slot = Int

    /// Holds, and the handlers to put back when none is left.
    private static let state = Locked((holds: 0, next: 0, previous: [(Int32, __sighandler_t?)]()))

    /// Makes the destination with the handlers in place and the signals
    /// held back on this thread, so that no moment passes between its
    /// temporary file appearing and its being registered (a SIGTERM in
    /// that gap left the file behind). `slot` is for `release`.
    static func protect(_ slot: inout Slot?, _ make: () throws -> ImageDestination) throws -> ImageDestination {
        slot = hold()
        var held = sigset_t()
        var previous = sigset_t()
        sigemptyset(&held)
        for s in signals { sigaddset(&held, s) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            Terminal.unblockSignals(signals)  // a parent's Dispatch thread may have blocked them
        }
        return try make()
    }

    /// Puts the handlers in place (if they are not) until `release`.
    static func hold() -> Slot {
        state.withLock { s in
            if s.holds == 0 { s.previous = install() }
            s.holds += 1
            s.next += 1
            return s.next
        }
    }

    /// Lets go of a hold; the handlers go back once none is left.
    static func release(_ slot: Slot?) {
        guard slot != nil else { return }
        state.withLock { s in
            s.holds -= 1
            if s.holds == 0 {
                for (signo, handler) in s.previous { signal(signo, handler) }
                s.previous = []
            }
        }
    }

    private static func install() -> [(Int32, __sighandler_t?)] {
        signals.map { s in
            // A signal ignored by the parent (SIGHUP under nohup) stays ignored.
            let before = signal(s) { signo in
                TemporaryFiles.removeAll()
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
