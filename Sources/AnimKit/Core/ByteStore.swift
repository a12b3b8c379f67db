#if canImport(Glibc)
import Glibc
#endif

/// An immutable copy of a file's bytes at a stable address, shared by the
/// container parser and the codecs, which lend pointers into it to the C
/// libraries. Freed when the last source using it goes away.
final class ByteStore: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    init(_ source: some Collection<UInt8>) {
        let count = source.count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        let copied = source.withContiguousStorageIfAvailable { src in
            if let base = src.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: count) }
            return true
        }
        if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: source) }
        bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
    }

    /// Reads the file at `path` straight into the store (no second copy).
    init(readingFile path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileBytes.ioError(path, "open") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FileBytes.ioError(path, "stat") }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw AnimError.io(path: path, operation: "read", errno: EISDIR, message: "is a directory")
        }
        var capacity = max(Int(st.st_size), 1 << 16)
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var used = 0
        var probe: UInt8 = 0
        while true {
            if used == capacity {
                // Full: one more byte tells whether the file goes on (it grew,
                // or it is a pipe or device that reports no size).
                let n = Glibc.read(fd, &probe, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { if n < 0 { buffer.deallocate(); throw FileBytes.ioError(path, "read") }; break }
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                bigger.copyMemory(from: buffer, byteCount: used)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
                buffer.storeBytes(of: probe, toByteOffset: used, as: UInt8.self)
                used += 1
            }
            let n = Glibc.read(fd, buffer + used, capacity - used)
            if n < 0 {
                if errno == EINTR { continue }
                let error = FileBytes.ioError(path, "read")
                buffer.deallocate()
                throw error
            }
            if n == 0 { break }
            used += n
        }
        bytes = UnsafeRawBufferPointer(start: buffer, count: used)
    }

    var count: Int { bytes.count }

    deinit { UnsafeMutableRawPointer(mutating: bytes.baseAddress!).deallocate() }
}
