/// GIF LZW decoding in one row of memory, for images that reach far
/// outside the canvas (a 65535×65535 image on a 2×2 screen): decoding the
/// whole image into one buffer, as `GIFLZWDecoder` does, would allocate
/// what the canvas limits never allowed. The textbook decoder, a prefix
/// chain per code, with the same browser rules as `GIFLZWDecoder`; the
/// oracle tests hold both to the same results.
enum GIFLZWRowDecoder {
    /// Decodes the image data that starts at `offset` (the LZW minimum code
    /// size byte, then sub-blocks) as `rows` rows of `width` indices, handing
    /// each row to `onRow(row number in stored order, indices, valid count)`;
    /// the last row handed over may be partial. `onRow` returns false to
    /// stop. Memory stays one row and the 4096-entry table.
    static func decodeRows(
        _ bytes: UnsafeRawBufferPointer, offset: Int, end: Int, width: Int, rows: Int,
        onRow: (Int, UnsafeBufferPointer<UInt8>, Int) -> Bool
    ) {
        guard offset < end, width > 0, rows > 0 else { return }
        let minSize = Int(bytes[offset])
        guard minSize >= 1 && minSize <= 11 else { return }
        let data = [UInt8](unsafeUninitializedCapacity: end - offset) { buffer, count in
            count = GIFLZWDecoder.payload(bytes, from: offset + 1, to: end, into: buffer.baseAddress!)
        }
        let clear = 1 << minSize
        let eoi = clear + 1
        var prefix = [UInt16](repeating: 0, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)
        var length = [UInt16](repeating: 0, count: 4096)
        for c in 0..<clear {
            suffix[c] = UInt8(truncatingIfNeeded: c)
            first[c] = suffix[c]
            length[c] = 1
        }
        var stack = [UInt8](repeating: 0, count: 4096)
        var line = [UInt8](repeating: 0, count: width)
        var next = clear + 2
        var running = clear + 2
        var codeWidth = minSize + 1
        var prev = -1
        var row = 0
        var column = 0
        var bitBuffer = 0
        var bitCount = 0
        var pos = 0
        decoding: while row < rows {
            while bitCount < codeWidth && pos < data.count {
                bitBuffer |= Int(data[pos]) << bitCount
                bitCount += 8
                pos += 1
            }
            if bitCount < codeWidth { break }
            let code = bitBuffer & ((1 << codeWidth) - 1)
            bitBuffer >>= codeWidth
            bitCount -= codeWidth
            if code == clear {
                next = clear + 2
                running = clear + 2
                codeWidth = minSize + 1
                prev = -1
                continue
            }
            if code == eoi || code > next || (code == next && prev < 0) { break }
            // The width rule of `GIFLZWDecoder` (giflib's).
            if running < 4097 {
                running += 1
                if running > 1 << codeWidth && codeWidth < 12 { codeWidth += 1 }
            }
            if prev >= 0 && next < 4096 {
                // New entry: prev's string + first byte of the current one.
                prefix[next] = UInt16(prev)
                suffix[next] = code < next ? first[code] : first[prev]
                first[next] = first[prev]
                length[next] = length[prev] + 1
                next += 1
            } else if code >= next {
                break
            }
            // The string is stored back to front: unwind it, then copy forward.
            let n = Int(length[code])
            var c = code
            for k in stride(from: n - 1, through: 0, by: -1) {
                stack[k] = suffix[c]
                c = Int(prefix[c])
            }
            var k = 0
            while k < n {
                let take = min(n - k, width - column)
                for j in 0..<take { line[column + j] = stack[k + j] }
                column += take
                k += take
                if column == width {
                    guard line.withUnsafeBufferPointer({ onRow(row, $0, width) }) else { return }
                    row += 1
                    column = 0
                    if row == rows { break decoding }
                }
            }
            prev = code
        }
        if column > 0 && row < rows {
            _ = line.withUnsafeBufferPointer { onRow(row, $0, column) }
        }
    }
}
