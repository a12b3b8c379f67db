import Foundation

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal whose master side a thread plays: it reads what the
/// program writes to the slave and, once the DA1 query (`ESC [ c`, the end
/// of the probe's round) has come, answers as scripted.
final class FakeTerminal: @unchecked Sendable {
    enum Script: Sendable {
        /// Writes each piece in turn, `gapMs` apart.
        case answer([[UInt8]], gapMs: Int = 0)
        /// Never answers.
        case silent
        /// Writes `first`, then `pattern` over and over, `limit` bytes in
        /// all (nil: until stopped), as fast as the slave side takes it.
        case flood([UInt8], limit: Int?, first: [UInt8] = [])
    }

    let master: Int32
    /// The slave side, opened read-write: the probe's input and output.
    let slave: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var stopped = false
    private var finished = false
    private var started = false
    private var lastWriteAt: SuspendingClock.Instant?
    private var written = 0
    private let script: Script
    /// Called on the master's thread once the queries are in, before the
    /// answer (for tests that act in the middle of the round).
    var onQueries: (@Sendable () -> Void)?

    init(columns: UInt16 = 80, rows: UInt16 = 24, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0, script: Script) throws {
        let pty = try PseudoTerminalPair(columns: columns, rows: rows, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        master = pty.master
        slave = pty.slave
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.script = script
    }

    /// Starts the thread playing the terminal.
    func start() {
        lock.lock()
        started = true
        lock.unlock()
        let thread = Thread { [self] in play() }
        thread.start()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }
    /// What the program wrote to the terminal so far.
    var received: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }
    /// When the last scripted byte went out (nil: none yet).
    var lastWrite: SuspendingClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return lastWriteAt
    }
    var bytesWritten: Int {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

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
        lock.lock()
        finished = true
        lock.unlock()
    }

    /// Reads what the program wrote, waiting up to `waitMs`.
    private func drain(waitMs: Int32) {
        var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, waitMs) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return }
            lock.lock()
            bytes += buffer[0..<n]
            lock.unlock()
        }
    }

    private func send(_ data: [UInt8], giveUpWhenStopped: Bool = false) {
        var off = 0
        while off < data.count {
            let n = data.withUnsafeBytes { write(master, $0.baseAddress! + off, $0.count - off) }
            if n > 0 {
                off += n
                lock.lock()
                written += n
                lock.unlock()
            } else {
                if giveUpWhenStopped && isStopped { return }
                drain(waitMs: 1)
            }
        }
        let now = SuspendingClock.now
        lock.lock()
        lastWriteAt = now
        lock.unlock()
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
        lock.lock()
        stopped = true
        let running = started
        lock.unlock()
        while running {
            lock.lock()
            let done = finished
            lock.unlock()
            if done { break }
            usleep(1000)
        }
    }

    /// The thread holds the terminal until `stop`.
    deinit {
        close(slave)
        close(master)
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence s: [UInt8]) -> Bool {
        guard !s.isEmpty, s.count <= count else { return s.isEmpty }
        for i in 0...(count - s.count) where self[i] == s[0] && Array(self[i..<(i + s.count)]) == s { return true }
        return false
    }
}
