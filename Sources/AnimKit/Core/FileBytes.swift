#if canImport(Glibc)
    import Glibc
#endif

/// Whole-file reads, reporting failures with the path and errno.
package enum FileBytes {
    package static func read(path: String) throws -> [UInt8] {
        let store = try ByteStore(readingFile: path)
        return Array(store.bytes)
    }

    static func ioError(_ path: String, _ operation: String) -> AnimError {
        let e = errno
        return AnimError(file: path, IOFailure(operation: operation, errno: e))
    }
}
