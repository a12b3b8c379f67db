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

    var count: Int { bytes.count }

    deinit { UnsafeMutableRawBufferPointer(mutating: bytes).deallocate() }
}
