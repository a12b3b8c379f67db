@_spi(AnimTools) import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// A file written whole or not at all: beside its place under a temporary
/// name, then renamed over it, so an existing file is replaced whole or
/// left as it was, and an interrupted write leaves no partial file.
enum AtomicWrite {
    /// `bytes` as the file `out`; `durable`: flushed to the disk before the
    /// rename (one output file: yes; a folder of frames: the rename alone).
    static func write(_ bytes: [UInt8], to out: String, durable: Bool = true) throws {
        func failure(_ operation: String, _ path: String) -> AnimError {
            .io(path: path, operation: operation, errno: errno, message: String(cString: strerror(errno)))
        }
        var template = Array((out + ".anim-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("create a file beside", out) }
        let temporary = String(cString: template)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                close(fd)
                throw failure("write", temporary)
            }
            written += n
        }
        fchmod(fd, 0o644 & ~currentUmask())
        guard !durable || fsync(fd) == 0, close(fd) == 0 else { throw failure("write", temporary) }
        guard rename(temporary, out) == 0 else { throw failure("rename into place", out) }
        done = true
    }

    private static func currentUmask() -> mode_t {
        let m = umask(0)
        umask(m)
        return m
    }
}
