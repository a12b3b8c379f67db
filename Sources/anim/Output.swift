import AnimKit

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
        _ = s.withUTF8 { FileDescriptorIO.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }
}
