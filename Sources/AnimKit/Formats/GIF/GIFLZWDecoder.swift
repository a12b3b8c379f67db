/// anim's GIF LZW decoder: every GIF image is decoded with it. giflib, which
/// decodes the same streams, is its oracle in the tests and in the
/// `fuzz-lzw` differential fuzz target.
///
/// It follows the browsers where giflib gives up: a full table stops
/// growing (streams that keep using 12-bit codes without a clear code,
/// gif-suite `max-codes`), an invalid code or the end of the data ends the
/// image, and the pixels decoded up to there are kept.
///
/// Speed: a code's string is always a run of the output written before it
/// (the previous code's string plus one byte), so the table holds only each
/// code's offset and length in the output and a code is one short copy,
/// eight bytes at a time, instead of a walk down a prefix chain.
enum GIFLZWDecoder {
    /// Decodes the image data that starts at `offset` (the LZW minimum code
    /// size byte, then sub-blocks) into `out[0..<count]` in stored order,
    /// and returns how many indices were decoded (`count` unless the data
    /// ends early or is damaged). Pixels past a full image are ignored.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, offset: Int, end: Int, into out: UnsafeMutablePointer<UInt8>, count total: Int
    ) -> Int {
        guard offset < end, total > 0 else { return 0 }
        let minSize = Int(bytes[offset])
        guard minSize >= 1 && minSize <= 11 else { return 0 }
        // (Eight bytes more, so the bit reader can load eight at a time.)
        let data = UnsafeMutablePointer<UInt8>.allocate(capacity: end - offset + 8)
        defer { data.deallocate() }
        let dataCount = payload(bytes, from: offset + 1, to: end, into: data)
        (data + dataCount).initialize(repeating: 0, count: 8)
        // Each table code's string: its offset in `out` and its length.
        let start = UnsafeMutablePointer<Int32>.allocate(capacity: 4096)
        let length = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
        defer {
            start.deallocate()
            length.deallocate()
        }
        let clear = 1 << minSize
        let eoi = clear + 1
        var next = clear + 2
        var codeWidth = minSize + 1
        var mask = (1 << codeWidth) - 1
        var prev = -1
        var prevPos = 0
        var prevLength = 0
        var pos = 0
        var bits: UInt64 = 0
        var bitCount = 0
        var dp = 0
        while pos < total {
            if bitCount < codeWidth {
                if dp + 8 <= dataCount {
                    // Eight bytes at once; whole bytes up to 56 bits kept.
                    bits |= UnsafeRawPointer(data + dp).loadUnaligned(as: UInt64.self).littleEndian << UInt64(bitCount)
                    dp &+= (63 &- bitCount) >> 3
                    bitCount |= 56
                } else {
                    while bitCount <= 56 && dp < dataCount {
                        bits |= UInt64(data[dp]) << UInt64(bitCount)
                        bitCount &+= 8
                        dp &+= 1
                    }
                    if bitCount < codeWidth { break }
                }
            }
            let code = Int(truncatingIfNeeded: bits) & mask
            bits >>= UInt64(codeWidth)
            bitCount &-= codeWidth
            if code == clear {
                next = clear + 2
                codeWidth = minSize + 1
                mask = (1 << codeWidth) - 1
                prev = -1
                continue
            }
            if code == eoi || code > next || (code == next && prev < 0) { break }
            if prev >= 0 && next < 4096 {
                // The new entry: the previous string and the byte after it.
                start[next] = Int32(prevPos)
                length[next] = UInt16(prevLength + 1)
                next += 1
                if next == 1 << codeWidth && codeWidth < 12 {
                    codeWidth += 1
                    mask = (1 << codeWidth) - 1
                }
            }
            let n: Int
            if code < clear {
                out[pos] = UInt8(truncatingIfNeeded: code)
                n = 1
            } else {
                n = Int(length[code])
                copy(out, from: Int(start[code]), to: pos, count: n, total: total)
            }
            prev = code
            prevPos = pos
            prevLength = n
            pos &+= n
        }
        return min(pos, total)
    }

    /// Writes the `count` bytes of `out` from `from` at `to`, clipped to
    /// `total`. The source always starts before the destination; it overlaps
    /// it only by its last byte (a code used as it is defined), which is the
    /// destination's first.
    @inline(__always)
    private static func copy(_ out: UnsafeMutablePointer<UInt8>, from s: Int, to pos: Int, count n: Int, total: Int) {
        let overlaps = s + n > pos
        let plain = overlaps ? n - 1 : n
        if pos + n + 8 <= total {
            // Eight bytes at a time; the bytes written past the string are
            // overwritten by what follows it.
            let src = UnsafeRawPointer(out + s)
            let dst = UnsafeMutableRawPointer(out + pos)
            var k = 0
            repeat {
                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k += 8
            } while k < plain
            if overlaps { out[pos + n - 1] = out[pos] }
        } else {
            let m = min(n, total - pos)
            for k in 0..<m { out[pos + k] = out[s + k] }
        }
    }

    /// Decodes as `decode(_:offset:end:into:count:)` and hands each stored
    /// row to `onRow(row number in stored order, indices, valid count)`; the
    /// last row handed over may be partial.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, offset: Int, end: Int, width: Int, rows: Int,
        onRow: (Int, UnsafeBufferPointer<UInt8>, Int) -> Void
    ) {
        guard width > 0, rows > 0 else { return }
        let total = width * rows
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: total)
        defer { out.deallocate() }
        let valid = decode(bytes, offset: offset, end: end, into: out, count: total)
        for row in 0..<rows where row * width < valid {
            onRow(row, UnsafeBufferPointer(start: out + row * width, count: width), min(width, valid - row * width))
        }
    }

    /// Copies the data sub-blocks' bytes, concatenated, into `out`
    /// (room for `end - start` bytes); returns how many.
    private static func payload(
        _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var count = 0
        var p = start
        while p < end {
            let n = Int(bytes[p])
            if n == 0 { break }
            let stop = min(p + 1 + n, end)
            UnsafeMutableRawPointer(out + count).copyMemory(from: bytes.baseAddress! + p + 1, byteCount: stop - p - 1)
            count += stop - p - 1
            p = stop
        }
        return count
    }
}
