import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// glibc declares these only under _XOPEN_SOURCE, which the Glibc module does not set.
@_silgen_name("posix_openpt") private func posixOpenpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantPT(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockPT(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") private func ptsnameR(_ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32

/// The one way the tests make a pseudo-terminal.
public enum PTY {
    /// A new pty's master (read-write, not the controlling terminal) and
    /// its slave's path, at `columns`×`rows` cells and `pixelWidth`×`pixelHeight`
    /// pixels (0: not known); throws ENOTTY when one cannot be had or sized.
    public static func open(columns: UInt16, rows: UInt16, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0) throws -> (
        master: Int32, slavePath: String
    ) {
        let master = posixOpenpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw POSIXError(.ENOTTY) }
        guard grantPT(master) == 0, unlockPT(master) == 0, let name = slavePath(master),
            resize(master, columns: columns, rows: rows, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        else {
            close(master)
            throw POSIXError(.ENOTTY)
        }
        return (master, name)
    }

    /// The slave's path, through `ptsname_r`: `ptsname`'s static buffer is
    /// shared by tests running in parallel, which then opened one another's pty.
    public static func slavePath(_ master: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        guard ptsnameR(master, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the window size on `master` (`TIOCSWINSZ`); false if that failed.
    @discardableResult
    public static func resize(_ master: Int32, columns: UInt16, rows: UInt16, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0)
        -> Bool
    {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: pixelWidth, ws_ypixel: pixelHeight)
        return ioctl(master, UInt(TIOCSWINSZ), &size) == 0
    }
}
