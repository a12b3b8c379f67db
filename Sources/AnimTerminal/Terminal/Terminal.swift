import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal the player owns (size, raw keys, the alternate screen, a hidden
/// cursor) and the guarantee that all of it is put back. The restoring bytes
/// and the saved tty mode are prepared before anything changes, in memory a
/// signal handler may use: on SIGINT, SIGTERM and SIGHUP the handler writes
/// them, restores the mode and exits. A closed output (EPIPE) and normal exit
/// restore the same way.
public enum Terminal {
    /// A window's size: cells, and pixels (0 where the terminal does not say).
    public typealias WindowSize = (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int)

    /// Columns and rows of the terminal on `fd`, or nil if it is not one.
    public static func size(fd: Int32 = 1) -> (columns: Int, rows: Int)? {
        windowSize(fd: fd).map { ($0.columns, $0.rows) }
    }

    /// The window size on `fd` with its pixel size (zero where the terminal
    /// does not know it), or nil. The one place `TIOCGWINSZ` is read.
    public static func windowSize(fd: Int32 = 1) -> WindowSize? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row), Int(ws.ws_xpixel), Int(ws.ws_ypixel))
    }

    /// True when `fd` is a terminal (`isatty`).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Unblocks `signals` for this thread: a process started from a thread
    /// that blocks them (a Dispatch worker) inherits the mask.
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
        guard isatty(fd) == 1 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Enters the player's mode: alternate screen, hidden cursor, raw input
    /// on `keyboard` (nil: none), restoring handlers; the sequences and the
    /// restore go to `output`. `resuming` (after Ctrl-Z): the restore puts
    /// back the mode saved first. `inScreen`: GNU screen, whose alternate
    /// screen is off unless configured: the `scrollAway` lines above the
    /// cursor (nil: the window's) are scrolled into its scrollback first,
    /// and the restore clears the window and puts the cursor at its top.
    public static func enter(
        keyboard: Int32?, output: Int32 = 1, resuming: Bool = false, inScreen: Bool = false, scrollAway: Int? = nil
    ) {
        TerminalState.prepare(keyboard: keyboard, output: output, resuming: resuming)
        TerminalState.clearAfter = inScreen ? 1 : 0
        var enter: [UInt8] = []
        if inScreen && !resuming, let rows = windowSize(fd: output)?.rows {
            let lines = min(max(scrollAway ?? rows, 0), rows)
            enter += Escape.moveTo(row: rows, column: 1) + [UInt8](repeating: 0x0A, count: lines)
        }
        enter += Escape.alternateScreenOn + Escape.hideCursor + Escape.clearScreen
        writeAll(output, &enter)
    }

    /// Puts everything back (idempotent), on the output `enter` was given.
    public static func leave() { TerminalState.restoreFromSignal() }

    /// Writes all of `bytes` to `fd`; false if the output is gone (EPIPE).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: inout [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Writes all of `raw` to `fd`; false if the output is gone. Async-signal-safe.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
        FileDescriptorIO.writeAll(fd, raw) == 0
    }
}
