import AnimKit
import AnimTestSupport
import Foundation

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal whose master side a thread plays: it reads what the
/// program writes to the slave and, once the DA1 query (`ESC [ c`, the end
/// of the probe's round) has come, answers as scripted.
final class FakeTerminal: Sendable {
    enum Script: Sendable {
        /// Writes each piece in turn, `gapMs` apart.
        case answer([[UInt8]], gapMs: Int = 0)
        /// Never answers.
        case silent
        /// Writes `first`, then `pattern` over and over, `limit` bytes in
        /// all (nil: until stopped), as fast as the slave side takes it.
        case flood([UInt8], limit: Int?, first: [UInt8] = [])
    }

    private struct State {
        /// What the program wrote.
        var received: [UInt8] = []
        var stopped = false, finished = false, started = false
        /// When the last scripted byte went out (nil: none yet).
        var lastWrite: SuspendingClock.Instant?
        var written = 0
        var onQueries: (@Sendable () -> Void)?
    }

    let master: Int32
    /// The slave side, opened read-write: the probe's input and output.
    let slave: Int32
    private let script: Script
    private let state = Locked(State())

    init(columns: UInt16 = 80, rows: UInt16 = 24, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0, script: Script) throws {
        let pty = try PseudoTerminalPair(columns: columns, rows: rows, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        master = pty.master
        slave = pty.slave
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.script = script
    }

    /// Called on the master's thread once the queries are in, before the
    /// answer (for tests that act in the middle of the round).
    var onQueries: (@Sendable () -> Void)? {
        get { state.withLock { $0.onQueries } }
        set { state.withLock { $0.onQueries = newValue } }
    }

    /// Starts the thread playing the terminal.
    func start() {
        state.withLock { $0.started = true }
        Thread { [self] in play() }.start()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }
    /// What the program wrote to the terminal so far.
    var received: [UInt8] { state.withLock { $0.received } }
    /// When the last scripted byte went out (nil: none yet).
    var lastWrite: SuspendingClock.Instant? { state.withLock { $0.lastWrite } }
    var bytesWritten: Int { state.withLock { $0.written } }

    private func play() {
        var answered = false
        while !isStopped {
            drain(waitMs: 5)
            if !answered, received.contains(subsequence: Escape.queryPrimaryAttributes) {
                answered = true
                onQueries?()
                switch script {
                case .answer(let pieces, let gap):
                    for (i, piece) in pieces.enumerated() {
                        if i > 0 && gap > 0 { usleep(UInt32(gap * 1000)) }
                        send(piece)
                    }
                case .silent: break
                case .flood(let pattern, let limit, let first):
                    send(first)
                    while !isStopped && (limit.map { bytesWritten < $0 } ?? true) { send(pattern, giveUpWhenStopped: true) }
                }
            }
        }
        state.withLock { $0.finished = true }
    }

    /// Reads what the program wrote, waiting up to `waitMs`.
    private func drain(waitMs: Int32) {
        var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, waitMs) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return }
            state.withLock { $0.received += buffer[0..<n] }
        }
    }

    private func send(_ data: [UInt8], giveUpWhenStopped: Bool = false) {
        var off = 0
        while off < data.count {
            let n = data.withUnsafeBytes { write(master, $0.baseAddress! + off, $0.count - off) }
            if n > 0 {
                off += n
                state.withLock { $0.written += n }
            } else {
                if giveUpWhenStopped && isStopped { return }
                drain(waitMs: 1)
            }
        }
        let now = SuspendingClock.now
        state.withLock { $0.lastWrite = now }
    }

    /// The slave's tty mode, all of C's 60 bytes.
    func mode() -> [UInt8] {
        let p = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        defer { p.deallocate() }
        memset(p, 0xAB, 64)
        _ = tcgetattr(slave, p.assumingMemoryBound(to: termios.self))
        return Array(UnsafeRawBufferPointer(start: p, count: 60))
    }

    /// Whether the slave is in canonical mode with echo (a fresh pty is).
    func isCooked() -> Bool {
        let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        defer { p.deallocate() }
        _ = tcgetattr(slave, p)
        return p.pointee.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO)
    }

    func stop() {
        let running = state.withLock {
            $0.stopped = true
            return $0.started
        }
        while running && !state.withLock({ $0.finished }) { usleep(1000) }
    }

    /// The thread holds the terminal until `stop`.
    deinit {
        close(slave)
        close(master)
    }
}
