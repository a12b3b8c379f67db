#if canImport(Glibc)
    import Glibc
#endif

/// Where a path that may be a symbolic link leads, for writers that
/// replace a file by renaming: the file a link names is replaced, and the
/// link stays (`OutputSink`, `anim optimize`).
package enum LinkTarget {
    /// `path` with symbolic links followed: where the link points, even
    /// when nothing is there yet.
    package static func resolve(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return path }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !target.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return target }
        return String(path[...slash]) + target
    }
}
