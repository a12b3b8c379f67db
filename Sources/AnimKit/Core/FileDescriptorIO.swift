#if canImport(Glibc)
    import Glibc
#endif

/// The one loop that writes all of a buffer to a file descriptor, for the
/// library, the terminal layer and the command line alike.
package enum FileDescriptorIO {
    /// Writes all of `bytes` to `fd` (with `position`, there: pwrite(2))
    /// through EINTR; on EAGAIN (a non-blocking output that is full) waits
    /// until it takes more, or with `waitingWhenFull` false stops there. Returns 0, or the errno that
    /// stopped it (EPIPE: the reader went away).
    ///
    /// Async-signal-safe: only write(2), poll(2) and errno, no allocation
    /// (the terminal's restore calls it from a signal handler).
    @discardableResult
    package static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at position: Int? = nil, waitingWhenFull: Bool = true
    ) -> Int32 {
        var off = 0
        while off < bytes.count {
            let n =
                if let position {
                    pwrite(fd, bytes.baseAddress! + off, bytes.count - off, off_t(position + off))
                } else {
                    write(fd, bytes.baseAddress! + off, bytes.count - off)
                }
            if n == 0 { return EIO }  // no progress: never seen, but never a spin either
            if n < 0 {
                let e = errno
                if e == EINTR { continue }
                if e == EAGAIN && waitingWhenFull {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 100)
                    continue
                }
                return e
            }
            off += n
        }
        return 0
    }

    /// As `writeAll(_:_:at:waitingWhenFull:)`, for an array.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], at position: Int? = nil) -> Int32 {
        bytes.withUnsafeBytes { writeAll(fd, $0, at: position) }
    }
}
