#if canImport(Glibc)
    import Glibc
#endif

/// Whole-file reads, reporting failures with the path and errno.
package enum FileBytes {
    package static func read(path: String) throws -> [UInt8] {
        try Array(ByteStore(readingFile: path).bytes)
    }

    static func ioError(_ path: String, _ operation: String) -> AnimError {
        AnimError(file: path, IOFailure(operation: operation, errno: errno))
    }
}
