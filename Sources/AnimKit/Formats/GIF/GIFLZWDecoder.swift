/// A GIF LZW decoder in Swift, used when giflib gives up on an image.
///
/// giflib stops with "EOF too soon" on streams that keep using 12-bit codes
/// once the table is full without a clear code (gif-suite `max-codes`),
/// which browsers decode, and it cannot say how many pixels of a damaged
/// row it produced. This decoder follows the browsers: a full table stops
/// growing, an invalid code or the end of data ends the image, and the
/// pixels decoded up to there are kept.
enum GIFLZWDecoder {
    /// Decodes the image data that starts at `offset` (the LZW minimum code
    /// size byte, then sub-blocks) as `rows` rows of `width` indices, handing
    /// each row to `onRow(row number in stored order, indices, valid count)`;
    /// the last row handed over may be partial. Memory stays one row.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, offset: Int, end: Int, width: Int, rows: Int,
        onRow: (Int, UnsafeBufferPointer<UInt8>, Int) -> Void
    ) {
        guard offset < end, width > 0, rows > 0 else { return }
        let minSize = Int(bytes[offset])
        guard minSize >= 1 && minSize <= 11 else { return }
        let data = payload(bytes, from: offset + 1, to: end)
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
                codeWidth = minSize + 1
                prev = -1
                continue
            }
            if code == eoi || code > next || (code == next && prev < 0) { break }
            if prev >= 0 && next < 4096 {
                // New entry: prev's string + first byte of the current one.
                prefix[next] = UInt16(prev)
                suffix[next] = code < next ? first[code] : first[prev]
                first[next] = first[prev]
                length[next] = length[prev] + 1
                next += 1
                if next == 1 << codeWidth && codeWidth < 12 { codeWidth += 1 }
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
                    line.withUnsafeBufferPointer { onRow(row, $0, width) }
                    row += 1
                    column = 0
                    if row == rows { break decoding }
                }
            }
            prev = code
        }
        if column > 0 && row < rows {
            line.withUnsafeBufferPointer { onRow(row, $0, column) }
        }
    }

    /// The data sub-blocks' bytes, concatenated.
    private static func payload(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(end - start)
        var p = start
        while p < end {
            let n = Int(bytes[p])
            if n == 0 { break }
            let stop = min(p + 1 + n, end)
            out += bytes[(p + 1)..<stop]
            p = stop
        }
        return out
    }
}
