import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// glibc declares these only under _XOPEN_SOURCE, which the Glibc module does not set.
@_silgen_name("posix_openpt") private func posixOpenpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantPT(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockPT(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") private func ptsnameR(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32

/// The one way this target's tests make a pseudo-terminal.
enum PTY {
    /// A new pty's master (read-write, not the controlling terminal) and
    /// its slave's path, at `columns`×`rows` cells; throws ENOTTY when one
    /// cannot be had or sized.
    static func open(columns: UInt16, rows: UInt16) throws -> (master: Int32, slavePath: String) {
        let master = posixOpenpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw POSIXError(.ENOTTY) }
        guard grantPT(master) == 0, unlockPT(master) == 0, let name = slavePath(master),
            resize(master, columns: columns, rows: rows)
        else {
            close(master)
            throw POSIXError(.ENOTTY)
        }
        return (master, name)
    }

    /// The slave's path, through `ptsname_r`: `ptsname`'s static buffer is
    /// shared by tests running in parallel, which then opened one another's pty.
    static func slavePath(_ master: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        guard ptsnameR(master, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the window size on `master` (`TIOCSWINSZ`); false if that failed.
    @discardableResult
    static func resize(_ master: Int32, columns: UInt16, rows: UInt16) -> Bool {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        return ioctl(master, UInt(TIOCSWINSZ), &size) == 0
    }
}

/// A pseudo-terminal whose master side this process reads.
///
/// The reading thread holds only its `PseudoTerminalReader`, never the terminal, so the
/// terminal is released when its last user lets go: `deinit` stops the
/// thread, waits for it, and closes the master.
final class PseudoTerminal: @unchecked Sendable {
    let master: Int32
    let slavePath: String
    /// What the thread has read.
    let reader = PseudoTerminalReader()

    init(columns: UInt16, rows: UInt16) throws {
        (master, slavePath) = try PTY.open(columns: columns, rows: rows)
        // Read everything the child writes, so it never blocks on a full pty.
        let (reader, master) = (reader, master)
        Thread { reader.run(master) }.start()
    }

    var output: [UInt8] { reader.bytes }
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Sets the window size (the child also needs a SIGWINCH to notice).
    func resize(columns: UInt16, rows: UInt16) { PTY.resize(master, columns: columns, rows: rows) }

    func type(_ s: String) { _ = s.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) } }

    /// Waits until the output contains `s`; false after `seconds`.
    func wait(for s: String, seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if text.contains(s) { return true }
            usleep(20_000)
        }
        return false
    }

    /// `stty -g` of the terminal, read through a fresh open of the slave.
    func sttyG() throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/stty")
        p.arguments = ["-g"]
        p.standardInput = try FileHandle(forUpdating: URL(fileURLWithPath: slavePath))
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        reader.stop()
        close(master)
    }
}

/// The master side's bytes, read by a thread until `stop`.
final class PseudoTerminalReader: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    private var stopped = false
    private var finished = false

    /// Reads `master` until stopped.
    func run(_ master: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isStopped {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            if n <= 0 {
                if n < 0 && errno != EINTR && errno != EAGAIN { usleep(20_000) }
                continue
            }
            lock.lock()
            storage += buffer[0..<n]
            lock.unlock()
        }
        lock.lock()
        finished = true
        lock.unlock()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }
    /// Everything read so far.
    var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
    /// True once the thread has returned.
    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Stops the thread and waits for it (at most a poll's 50 ms and a read).
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        while !isFinished { usleep(1_000) }
    }
}
