#if canImport(Glibc)
import Glibc
#endif

/// The terminal the player owns: size, raw keyboard input, the alternate
/// screen and a hidden cursor, and the guarantee that all of it is put back.
///
/// The restoring bytes and the saved tty mode are prepared before anything
/// changes, in memory a signal handler may use: on SIGINT, SIGTERM and SIGHUP
/// the handler writes them, restores the tty mode with `tcsetattr` and exits
/// (only async-signal-safe calls). A closed output (EPIPE) and normal exit
/// restore the same way.
public enum Terminal {
    /// Columns and rows of the terminal on `fd`, or nil if it is not one.
    public static func size(fd: Int32 = 1) -> (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Unblocks `signals` for this thread. A process started from a thread
    /// that blocks them (a Dispatch worker does) inherits the blocked mask,
    /// and would otherwise never see Ctrl-C or SIGTERM.
    public static func unblockSignals(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The process's terminal (`/dev/tty`) opened for reading keys, or nil.
    public static func openControllingTerminal() -> Int32? {
        let fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard isatty(fd) == 1 else { close(fd); return nil }
        return fd
    }

    /// Enters the player's mode: alternate screen, hidden cursor, raw input
    /// on `keyboard` (a terminal's fd, or nil for none). Installs the
    /// restoring handlers.
    public static func enter(keyboard: Int32?) {
        TerminalState.prepare(keyboard: keyboard)
        var enter: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J".utf8)
        writeAll(1, &enter)
    }

    /// Puts everything back (idempotent).
    public static func leave() { TerminalState.restore() }

    /// Writes all of `bytes` to `fd`; false if the output is gone (EPIPE).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: inout [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0); _ = poll(&p, 1, 100); continue }
                    return false
                }
                off += n
            }
            return true
        }
    }
}

/// State a signal handler may touch: fixed buffers prepared in advance.
enum TerminalState {
    /// The tty mode to put back. In memory of C's `sizeof(struct termios)`
    /// (60 bytes): Swift's `termios` is 57 bytes long plus padding, and a
    /// Swift variable of it is 3 bytes short of what tcgetattr writes
    /// (found by AddressSanitizer).
    nonisolated(unsafe) static let saved: UnsafeMutablePointer<termios> = {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)     // stride: 60 bytes
        p.initialize(to: termios())
        return p
    }()
    /// The raw mode, likewise.
    nonisolated(unsafe) static let raw: UnsafeMutablePointer<termios> = {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        p.initialize(to: termios())
        return p
    }()
    nonisolated(unsafe) static var haveSaved: Int32 = 0
    nonisolated(unsafe) static var keyboardFD: Int32 = 0
    nonisolated(unsafe) static var active: Int32 = 0
    /// Leave the alternate screen, show the cursor, reset colours. Made
    /// in `prepare`, never first in a signal handler (which must not allocate).
    nonisolated(unsafe) static let restoreBytes: UnsafeBufferPointer<UInt8> = {
        let bytes = Array("\u{1B}[?2026l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
        let p = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = p.initialize(from: bytes)
        return UnsafeBufferPointer(p)
    }()

    /// The handlers go in before the tty mode changes, and `active` is set
    /// before it too: a signal at any moment after this starts finds
    /// something that puts the terminal back.
    static func prepare(keyboard: Int32?) {
        _ = restoreBytes
        var makeRaw = false
        if let keyboard, tcgetattr(keyboard, saved) == 0 {
            keyboardFD = keyboard
            haveSaved = 1
            raw.pointee = saved.pointee
            raw.pointee.c_lflag &= ~tcflag_t(ICANON | ECHO)
            raw.pointee.c_iflag &= ~tcflag_t(IXON | ICRNL)
            raw.pointee.c_cc.6 = 0     // VMIN
            raw.pointee.c_cc.5 = 0     // VTIME
            makeRaw = true
        }
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(sig) { signo in
                TerminalState.restoreFromSignal()
                _exit(128 + signo)
            }
        }
        signal(SIGPIPE, SIG_IGN)
        active = 1
        Terminal.unblockSignals([SIGINT, SIGTERM, SIGHUP, SIGQUIT])
        if makeRaw { tcsetattr(keyboardFD, TCSANOW, raw) }
    }

    /// Async-signal-safe: write(2), tcsetattr(3).
    static func restoreFromSignal() {
        guard active == 1 else { return }
        active = 0
        _ = write(1, restoreBytes.baseAddress, restoreBytes.count)
        if haveSaved == 1 { tcsetattr(keyboardFD, TCSANOW, saved) }
    }

    static func restore() { restoreFromSignal() }
}
