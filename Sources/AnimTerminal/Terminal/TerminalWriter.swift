#if canImport(Glibc)
    import Glibc
#endif

/// The one writer that owns the terminal: every byte the player sends goes
/// through it, as in timg's write sequencer.
///
/// A frame goes out in pieces that end where an escape sequence begins. A
/// SIGINT, SIGTERM or SIGHUP during a piece is held until the piece is
/// out, so the restore follows a sequence boundary; if the terminal does
/// not take the piece within a second, an alarm restores and exits anyway.
public final class TerminalWriter {
    /// The file descriptor every byte goes to (the terminal's output).
    public let fd: Int32
    /// The largest piece written before a pending signal is looked at.
    static let pieceSize = 4096

    /// A writer to `fd` (1: standard output).
    public init(fd: Int32) { self.fd = fd }

    /// Writes all of `bytes`; false if the output is gone (EPIPE).
    /// `synchronized`: they open and close a synchronized update.
    @discardableResult
    public func write(_ bytes: [UInt8], synchronized: Bool = false) -> Bool {
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { buffer in
            TerminalState.writing = 1
            defer {
                TerminalState.writing = 0
                TerminalState.syncOpen = 0
                TerminalState.honourPendingSignal()
            }
            var start = 0
            while start < buffer.count {
                let end = Self.pieceEnd(buffer, from: start)
                // Open before the first piece: a restore forced during it
                // closes the update (an extra ?2026l is harmless).
                if synchronized && start == 0 { TerminalState.syncOpen = 1 }
                guard Terminal.writeAll(fd, UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<end]))) else {
                    return false
                }
                start = end
                if end == buffer.count { TerminalState.syncOpen = 0 }
                // Back from Ctrl-Z: the player redraws; the rest would land
                // on the shell's screen.
                if TerminalState.honourPendingSignal() { return true }
            }
            return true
        }
    }

    /// Where the piece starting at `start` ends: at most `pieceSize` bytes
    /// on, back to the start of an escape sequence (text between sequences
    /// is whole characters); when none starts in the window, forward to the next.
    static func pieceEnd(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let limit = start + pieceSize
        guard limit < b.count, let base = b.baseAddress else { return b.count }
        // The last boundary ESC at start + 2 … limit, else the first past
        // it, by memchr: base64 has none for 4 KiB, and a walk back byte by
        // byte cost kitty mode CPU. Once one lies within, the search stops
        // at `limit`.
        var (last, at, end) = (-1, start + 2, b.count)
        while at < end, let hit = memchr(base + at, Int32(Escape.esc), end - at) {
            let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if isBoundary(b, i) {
                if i > limit { return i }
                (last, end) = (i, limit + 1)
            }
            at = i + 1
        }
        return last >= 0 ? last : b.count
    }

    /// True at an ESC that starts a sequence: not a doubled one (tmux's
    /// passthrough) nor that of ST.
    @inline(__always)
    static func isBoundary(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        guard b[i] == Escape.esc else { return false }
        if i > 0 && b[i - 1] == Escape.esc { return false }
        guard i + 1 < b.count else { return true }
        return b[i + 1] != 0x5C && b[i + 1] != Escape.esc
    }
}
