import CDeflate

/// zlib streams, inflated and deflated with libdeflate: PNG's metadata
/// chunks (`iCCP`, `zTXt`, compressed `iTXt`) and tables stored compressed
/// in the source (AnimTerminal's `XtermPalette.table`).
package enum Zlib {
    /// The inflated bytes, or nil when the stream is damaged or would pass
    /// `limit` bytes (the buffer grows by doubling up to it, never past).
    package static func inflate(_ input: [UInt8], limit: Int) -> [UInt8]? {
        guard !input.isEmpty, let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        var capacity = min(max(input.count * 4, 1024), limit)
        while true {
            var out = [UInt8](repeating: 0, count: capacity)
            var actual = 0
            let result = input.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    libdeflate_zlib_decompress(d, src.baseAddress, src.count, dst.baseAddress, dst.count, &actual)
                }
            }
            if result == LIBDEFLATE_SUCCESS { return Array(out[..<actual]) }
            guard result == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < limit else { return nil }
            capacity = min(capacity * 2, limit)
        }
    }

    /// `input` as a zlib stream at libdeflate's level 12.
    package static func compress(_ input: [UInt8]) -> [UInt8] {
        guard let c = libdeflate_alloc_compressor(12) else { return [] }
        defer { libdeflate_free_compressor(c) }
        var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(c, input.count))
        let n = input.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { libdeflate_zlib_compress(c, src.baseAddress, src.count, $0.baseAddress, $0.count) }
        }
        return Array(out[..<n])
    }
}
