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
        var out = [UInt8]()
        out.reserveCapacity(Int(st.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError(path, "read")
            }
            if n == 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    static func ioError(_ path: String, _ operation: String) -> AnimError {
        let e = errno
        return .io(path: path, operation: operation, errno: e, message: String(cString: strerror(e)))
    }
}
