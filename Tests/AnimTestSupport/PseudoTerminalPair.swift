import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A new pseudo-terminal with both sides open read-write, neither this
/// process's controlling terminal: for tests that hand the slave to code
/// in this process.
public struct PseudoTerminalPair: Sendable {
    public let master: Int32
    public let slave: Int32

    /// A pty of `columns`×`rows` cells and `pixelWidth`×`pixelHeight`
    /// pixels (0: not known); throws ENOTTY when one cannot be had or sized.
    public init(columns: UInt16 = 80, rows: UInt16 = 24, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0) throws {
        let (master, name) = try PTY.open(columns: columns, rows: rows, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            Glibc.close(master)
            throw POSIXError(.ENOTTY)
        }
        self.master = master
        self.slave = slave
    }

    /// Sets the window size (`TIOCSWINSZ`); false if the ioctl failed.
    @discardableResult
    public func resize(columns: UInt16, rows: UInt16, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0) -> Bool {
        PTY.resize(master, columns: columns, rows: rows, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    /// Puts the slave in raw mode: bytes arrive on the master as written.
    public func makeRaw() {
        var mode = termios()
        tcgetattr(slave, &mode)
        cfmakeraw(&mode)
        tcsetattr(slave, TCSANOW, &mode)
    }

    /// Closes both sides.
    public func close() {
        Glibc.close(slave)
        Glibc.close(master)
    }
}
