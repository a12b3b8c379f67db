#if canImport(Glibc)
    import Glibc
#endif

extension Array where Element == UInt8 {
    /// Whether `s` stands somewhere in the bytes (an empty `s` always does).
    public func contains(subsequence s: [UInt8]) -> Bool {
        guard !s.isEmpty, s.count <= count else { return s.isEmpty }
        for i in 0...(count - s.count) where self[i] == s[0] && Array(self[i..<(i + s.count)]) == s { return true }
        return false
    }

    /// Where the last `needle` starts, if anywhere.
    public func lastIndex(of needle: [UInt8]) -> Int? {
        guard !needle.isEmpty, count >= needle.count else { return nil }
        var i = count - needle.count
        while i >= 0 {
            if self[i] == needle[0] && Array(self[i..<(i + needle.count)]) == needle { return i }
            i -= 1
        }
        return nil
    }
}

/// Runs `body` with the two ends of a new pipe(2), closed after; throws
/// if none could be made.
public func withPipe<T>(_ body: (_ read: Int32, _ write: Int32) throws -> T) throws -> T {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw TestFailure("pipe: errno \(errno)") }
    defer {
        close(fds[0])
        close(fds[1])
    }
    return try body(fds[0], fds[1])
}
