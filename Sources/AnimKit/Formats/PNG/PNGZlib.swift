import CDeflate

/// zlib streams of PNG metadata chunks, inflated with libdeflate: the only
/// file of AnimKit that calls libdeflate's decompressor.
enum PNGInflate {
    /// The inflated bytes, or nil when the stream is damaged or would pass
    /// `limit` bytes (the buffer grows by doubling up to it, never past).
    static func zlib(_ input: [UInt8], limit: Int) -> [UInt8]? {
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
}
