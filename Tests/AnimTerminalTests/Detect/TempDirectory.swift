@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// A temporary directory removed when dropped, with small helpers to
/// write files (parents made) and run programs in it.
final class TempDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/anim-detect-XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw Failure("mkdtemp: \(errno)") }
        path = String(cString: p)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// Writes `bytes` to `name` (relative), making its directories.
    func write(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws {
        let full = path + "/" + name
        var dir = ""
        for part in name.split(separator: "/").dropLast() {
            dir += "/" + part
            mkdir(path + dir, 0o755)
        }
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw Failure("open \(full): \(errno)") }
        defer { close(fd) }
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure("write \(full)")
        }
        chmod(full, mode)
    }

    /// Runs `program` with `arguments`, output discarded; its exit status.
    func run(_ program: String, _ arguments: [String]) -> Int32 {
        let out = BoundedCommand.run([[program] + arguments], environment: ["PATH": "/usr/bin:/bin"], timeoutMs: 20_000)
        return out[0] == nil ? 1 : 0
    }

    deinit {
        _ = BoundedCommand.run([["/bin/rm", "-rf", path]], environment: [:], timeoutMs: 10_000)
    }
}
