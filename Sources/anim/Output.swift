import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Writes to stdout and stderr with write(2), whole strings at once.
enum Output {
    static func out(_ s: String) { write(1, s) }
    static func err(_ s: String) { write(2, s) }

    /// The source's warnings on stderr, a line each (not errors: the
    /// command's status stays 0 for them).
    static func warn(_ source: ImageSource, _ path: String) {
        for w in source.warnings { err("anim: \(path): warning: \(w)\n") }
    }

    private static func write(_ fd: Int32, _ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                off += n
            }
        }
    }
}
