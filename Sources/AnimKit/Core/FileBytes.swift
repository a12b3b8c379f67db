import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads whole files, reporting failures with the path and errno.
enum FileBytes {
    static func read(path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError(path, "open") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ioError(path, "stat") }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw AnimError.io(path: path, operation: "read", errno: EISDIR, message: "is a directory")
        }
        // Read into a buffer of the file's size, growing it if the file grows
        // (or is a pipe or device that reports no size).
        var out = [UInt8](repeating: 0, count: max(Int(st.st_size), 1 << 16))
        var used = 0
        while true {
            if used == out.count { out += [UInt8](repeating: 0, count: out.count) }
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + used, $0.count - used) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError(path, "read")
            }
            if n == 0 { break }
            used += n
        }
        out.removeSubrange(used...)
        return out
    }

    static func ioError(_ path: String, _ operation: String) -> AnimError {
        let e = errno
        return .io(path: path, operation: operation, errno: e, message: String(cString: strerror(e)))
    }
}
