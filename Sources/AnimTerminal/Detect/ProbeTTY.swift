#if canImport(Glibc)
    import Glibc
#endif

/// The tty mode while the probe waits for replies: no echo, not canonical
/// (replies have no newline), no signal keys (Ctrl-C arrives as a key
/// instead of killing the process with the tty in this mode).
///
/// Only changed when the terminal is not raw already, then put back as it
/// was (saved as `TerminalState.saved` is). A SIGTERM, SIGHUP, SIGINT or
/// SIGQUIT meanwhile puts the mode back, reinstates the previous
/// disposition and is raised again. Calls are serialised (process-wide state).
enum ProbeTTY {
    nonisolated(unsafe) static let saved = TerminalState.termiosMemory()
    nonisolated(unsafe) static let probe = TerminalState.termiosMemory()
    /// The dispositions to put back, one per `signals` entry.
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 4)
        p.initialize(repeating: sigaction(), count: 4)
        return p
    }()
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var changed: Int32 = 0
    nonisolated(unsafe) static var installed: Int32 = 0
    nonisolated(unsafe) static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let p = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(p, nil)
        return p
    }()
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs `body` with `tty` in the probe's mode, telling it whether it changed.
    static func withProbeMode<T>(_ tty: Int32, _ body: (_ changed: Bool) -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard tcgetattr(tty, saved) == 0 else { return body(false) }
        guard saved.pointee.c_lflag & tcflag_t(ICANON | ECHO) != 0 else { return body(false) }
        probe.pointee = saved.pointee
        probe.pointee.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHONL | ISIG | IEXTEN)
        probe.pointee.c_cc.6 = 0  // VMIN
        probe.pointee.c_cc.5 = 0  // VTIME
        fd = tty
        installHandlers()
        changed = 1
        guard tcsetattr(tty, TCSANOW, probe) == 0 else {
            changed = 0
            removeHandlers()
            return body(false)
        }
        let result = body(true)
        if changed == 1 {
            changed = 0
            tcsetattr(tty, TCSANOW, saved)
        }
        removeHandlers()
        return result
    }

    static func installHandlers() {
        for (i, sig) in signals.enumerated() {
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            action.__sigaction_handler.sa_handler = { signo in ProbeTTY.handle(signo) }
            sigaction(sig, &action, previous + i)
            // A signal the caller ignores stays ignored.
            if isIgnored(previous[i]) { sigaction(sig, previous + i, nil) }
        }
        installed = 1
    }

    /// SIG_IGN is the handler address 1.
    static func isIgnored(_ action: sigaction) -> Bool {
        action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) == 1 } ?? false
    }

    static func removeHandlers() {
        guard installed == 1 else { return }
        installed = 0
        for (i, sig) in signals.enumerated() { sigaction(sig, previous + i, nil) }
    }

    /// Async-signal-safe: tcsetattr(3), sigaction(2), raise(3).
    static func handle(_ signo: Int32) {
        if changed == 1 {
            changed = 0
            tcsetattr(fd, TCSANOW, saved)
        }
        let i = signo == SIGINT ? 0 : signo == SIGTERM ? 1 : signo == SIGHUP ? 2 : 3  // as in `signals`
        sigaction(signo, previous + i, nil)
        raise(signo)
    }
}
