import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// State a signal handler may touch: fixed buffers prepared in advance, and
/// flags it reads and writes (only async-signal-safe calls in the handler).
enum TerminalState {
    /// The tty mode to put back, in memory of C's `sizeof(struct termios)`:
    /// a Swift variable of it is 3 bytes short of what tcgetattr writes.
    nonisolated(unsafe) static let saved = termiosMemory()
    nonisolated(unsafe) static let raw = termiosMemory()
    nonisolated(unsafe) static var haveSaved: Int32 = 0
    nonisolated(unsafe) static var keyboardFD: Int32 = 0
    /// Where the restoring bytes go: the player's output.
    nonisolated(unsafe) static var outputFD: Int32 = 1
    nonisolated(unsafe) static var active: Int32 = 0
    /// Set by `TerminalWriter` while it writes a piece: a signal then waits
    /// for the piece to end (`pendingSignal`).
    nonisolated(unsafe) static var writing: Int32 = 0
    nonisolated(unsafe) static var pendingSignal: Int32 = 0
    /// A synchronized update is open: the restore closes it.
    nonisolated(unsafe) static var syncOpen: Int32 = 0

    /// What the restore writes first when a synchronized update is open
    /// (made in `prepare`: a signal handler must not allocate).
    nonisolated(unsafe) static let syncEndBytes: UnsafeBufferPointer<UInt8> = buffer(Escape.syncEnd)
    /// Leave the alternate screen, show the cursor, reset colours.
    nonisolated(unsafe) static let restoreBytes: UnsafeBufferPointer<UInt8> =
        buffer(Escape.resetAttributes + Escape.showCursor + Escape.alternateScreenOff)
    /// Bytes a backend needs sent before the restore (kitty's deletes).
    static let extraCapacity = 512
    nonisolated(unsafe) static let extraBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: extraCapacity)
    nonisolated(unsafe) static var extraCount = 0

    /// Where the cursor goes after the alternate screen is left, when the
    /// saved cursor is no longer right (the window shrank below the shell's
    /// row: the main screen scrolled, xterm's saved cursor did not).
    nonisolated(unsafe) static let cursorAfterBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16)
    nonisolated(unsafe) static var cursorAfterCount = 0

    /// After the restore, clear the window and put the cursor at its top
    /// (GNU screen), in place of `cursorAfterBytes`: ED 0 from the top, as
    /// screen copies a window cleared by ED 2 into its scrollback.
    nonisolated(unsafe) static var clearAfter: Int32 = 0
    nonisolated(unsafe) static let clearAfterBytes: UnsafeBufferPointer<UInt8> = buffer(
        Escape.moveTo(row: 1, column: 1) + Escape.csi("J"))

    /// Sets the row the cursor is put on after the restore (nil: the saved cursor).
    static func setCursorAfter(row: Int?) {
        cursorAfterCount = 0
        guard let row, row >= 1, row <= 9999 else { return }
        cursorAfterCount = cursorAfterBytes.update(fromContentsOf: Escape.moveTo(row: row, column: 1))
    }

    /// A tty mode in memory of C's size (see `saved`), zeroed, never freed.
    static func termiosMemory() -> UnsafeMutablePointer<termios> {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)  // stride: 60 bytes
        p.initialize(to: termios())
        return p
    }

    static func buffer(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        let p = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = p.initialize(from: bytes)
        return UnsafeBufferPointer(p)
    }

    /// Sets the bytes sent before the restore (before `prepare`, or unchanged).
    static func setExtra(_ bytes: [UInt8]) {
        extraCount = 0
        extraCount = extraBytes.update(fromContentsOf: bytes.prefix(extraCapacity))
    }

    /// The handlers go in, and `active` is set, before the tty mode changes:
    /// a signal at any moment finds something that puts the terminal back.
    /// `resuming` (after Ctrl-Z): the mode saved first stays the one to
    /// restore (after SIGSTOP the tty may still be raw). The restoring bytes
    /// go to `output`.
    static func prepare(keyboard: Int32?, output: Int32 = 1, resuming: Bool = false) {
        _ = (restoreBytes, syncEndBytes, extraBytes, cursorAfterBytes, clearAfterBytes)
        outputFD = output
        // Touched here so that no handler is the first to (lazily) initialise them.
        writing = 0
        pendingSignal = 0
        syncOpen = 0
        var makeRaw = false
        if let keyboard, (resuming && haveSaved == 1 && keyboardFD == keyboard) || tcgetattr(keyboard, saved) == 0 {
            keyboardFD = keyboard
            haveSaved = 1
            raw.pointee = saved.pointee
            raw.pointee.c_lflag &= ~tcflag_t(ICANON | ECHO)
            raw.pointee.c_iflag &= ~tcflag_t(IXON | ICRNL)
            raw.pointee.c_cc.6 = 0  // VMIN
            raw.pointee.c_cc.5 = 0  // VTIME
            makeRaw = true
        }
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(sig) { signo in
                if TerminalState.writing == 1 {
                    // Finish the piece first, within a second (armed once;
                    // a quit replaces a pending Ctrl-Z, which armed none).
                    let pending = TerminalState.pendingSignal
                    if pending == 0 || pending == SIGTSTP { alarm(1) }
                    TerminalState.pendingSignal = signo
                    return
                }
                TerminalState.restoreFromSignal()
                _exit(128 + signo)
            }
        }
        signal(SIGALRM) { _ in
            // The piece was not taken within a second: restore without waiting.
            let signo = TerminalState.pendingSignal
            guard signo != 0 else { return }
            TerminalState.restoreFromSignal(wait: false)
            _exit(128 + signo)
        }
        signal(SIGPIPE, SIG_IGN)
        active = 1
        Terminal.unblockSignals([SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM])
        if makeRaw { tcsetattr(keyboardFD, TCSANOW, raw) }
    }

    /// Called by the writer between pieces: a signal held back ends the
    /// player now. True after Ctrl-Z and the resume: the rest of what was
    /// being written must not go out (the player redraws).
    @discardableResult
    static func honourPendingSignal() -> Bool {
        let signo = pendingSignal
        guard signo != 0 else { return false }
        if signo == SIGTSTP {
            pendingSignal = 0
            suspendFromSignal()
            return true
        }
        restoreFromSignal()
        _exit(128 + signo)
    }

    /// Ctrl-Z: restores, then stops the process. Async-signal-safe.
    static func suspendFromSignal() {
        restoreFromSignal()
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
    }

    /// Async-signal-safe. Without `wait`, bytes the terminal cannot take at
    /// once are dropped (the output is non-blocking for the writes, then put
    /// back: the file description is the shell's too).
    static func restoreFromSignal(wait: Bool = true) {
        guard active == 1 else { return }
        active = 0
        let fd = outputFD
        let flags = wait ? -1 : fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        defer { if flags >= 0 { _ = fcntl(fd, F_SETFL, flags) } }
        // No array or closure here: nothing that could allocate.
        if syncOpen == 1 { send(fd, syncEndBytes.baseAddress, syncEndBytes.count, wait) }
        if extraCount > 0 { send(fd, extraBytes.baseAddress, extraCount, wait) }
        send(fd, restoreBytes.baseAddress, restoreBytes.count, wait)
        if clearAfter == 1 {
            send(fd, clearAfterBytes.baseAddress, clearAfterBytes.count, wait)
        } else if cursorAfterCount > 0 {
            send(fd, cursorAfterBytes.baseAddress, cursorAfterCount, wait)
        }
        if haveSaved == 1 { tcsetattr(keyboardFD, TCSANOW, saved) }
    }

    /// Async-signal-safe (see `FileDescriptorIO.writeAll`).
    private static func send(_ fd: Int32, _ bytes: UnsafePointer<UInt8>?, _ count: Int, _ wait: Bool) {
        FileDescriptorIO.writeAll(fd, UnsafeRawBufferPointer(start: bytes, count: count), waitingWhenFull: wait)
    }
}
