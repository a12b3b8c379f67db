import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// glibc declares these only under _XOPEN_SOURCE, which the Glibc module does not set.
@_silgen_name("posix_openpt") private func posixOpenpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantPT(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockPT(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") private func ptsnameR(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32

/// A new pseudo-terminal, both sides open read-write and neither this
/// process's controlling terminal: the one way this target's tests make one.
struct PseudoTerminalPair {
    let master: Int32
    let slave: Int32

    /// A pty of `columns`×`rows` cells and `pixelWidth`×`pixelHeight`
    /// pixels (0: not known); throws ENOTTY when one cannot be had or
    /// sized.
    init(columns: UInt16 = 80, rows: UInt16 = 24, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0) throws {
        let master = posixOpenpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw POSIXError(.ENOTTY) }
        guard grantPT(master) == 0, unlockPT(master) == 0, let name = Self.slavePath(master) else {
            Glibc.close(master)
            throw POSIXError(.ENOTTY)
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            Glibc.close(master)
            throw POSIXError(.ENOTTY)
        }
        self.master = master
        self.slave = slave
        guard resize(columns: columns, rows: rows, pixelWidth: pixelWidth, pixelHeight: pixelHeight) else {
            close()
            throw POSIXError(.ENOTTY)
        }
    }

    /// The slave's path, through `ptsname_r`: `ptsname`'s static buffer is
    /// shared by tests running in parallel, which then opened one another's pty.
    static func slavePath(_ master: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        guard ptsnameR(master, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the window size (`TIOCSWINSZ`); false if the ioctl failed.
    @discardableResult
    func resize(columns: UInt16, rows: UInt16, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0) -> Bool {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: pixelWidth, ws_ypixel: pixelHeight)
        return ioctl(master, UInt(TIOCSWINSZ), &size) == 0
    }

    /// Puts the slave in raw mode: bytes arrive on the master as written.
    func makeRaw() {
        var mode = termios()
        tcgetattr(slave, &mode)
        cfmakeraw(&mode)
        tcsetattr(slave, TCSANOW, &mode)
    }

    /// Closes both sides.
    func close() {
        Glibc.close(slave)
        Glibc.close(master)
    }
}
