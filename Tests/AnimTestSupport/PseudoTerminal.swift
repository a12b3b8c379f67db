import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal whose master side this process reads, for a child
/// process that runs on its slave.
///
/// The reading thread holds only its `PseudoTerminalReader`, never the terminal, so the
/// terminal is released when its last user lets go: `deinit` stops the
/// thread, waits for it, and closes the master.
public final class PseudoTerminal: Sendable {
    public let master: Int32
    public let slavePath: String
    /// What the thread has read.
    public let reader = PseudoTerminalReader()

    public init(columns: UInt16, rows: UInt16) throws {
        (master, slavePath) = try PTY.open(columns: columns, rows: rows)
        // Read everything the child writes, so it never blocks on a full pty.
        reader.start(master)
    }

    public var output: [UInt8] { reader.bytes }
    public var text: String { String(decoding: output, as: UTF8.self) }

    /// Sets the window size (the child also needs a SIGWINCH to notice).
    public func resize(columns: UInt16, rows: UInt16) { PTY.resize(master, columns: columns, rows: rows) }

    /// Sends `s` as if typed.
    public func type(_ s: String) {
        _ = s.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }

    /// Waits until the output (past its first `after` bytes) contains `s`;
    /// false after `seconds`.
    public func wait(for s: String, seconds: Double, after mark: Int = 0) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let out = output
            if String(decoding: out[min(mark, out.count)...], as: UTF8.self).contains(s) { return true }
            usleep(20_000)
        }
        return false
    }

    /// The slave, opened afresh for reading and writing.
    public func openSlave() throws -> FileHandle { try FileHandle(forUpdating: URL(fileURLWithPath: slavePath)) }

    /// Starts `executable` with `arguments` on a fresh open of the slave
    /// (its standard input, and its output and errors unless given);
    /// `environment` is added to this process's.
    public func launch(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], output: Any? = nil, errors: Any? = nil
    ) throws -> (process: Process, slave: FileHandle) {
        let slave = try openSlave()
        let p = try Process.launch(
            executable, arguments, environment: environment, input: slave, output: output ?? slave, errors: errors ?? slave)
        return (p, slave)
    }

    /// `stty -g` of the terminal, read through a fresh open of the slave.
    public func sttyG() throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/stty")
        p.arguments = ["-g"]
        p.standardInput = try openSlave()
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
