/// anim's GIF LZW decoder: every GIF image is decoded with it. giflib, which
/// decodes the same streams, is its oracle in the tests and in the
/// `fuzz-lzw` differential fuzz target.
///
/// It follows the browsers where giflib gives up: a full table stops
/// growing (streams that keep using 12-bit codes without a clear code,
/// gif-suite `max-codes`), an invalid code or the end of the data ends the
/// image, and the pixels decoded up to there are kept.
///
/// A code's string is always a run of the output written before it (the
/// previous code's string plus one byte), so the table holds only where
/// each code's string is and its length, and a code is one short copy,
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
        // Each code's string: where it is (a literal's in `literals`, a
        // table code's in `out`) and its length.
        let literals = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096 + 8)
        let source = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: 4096)
        let length = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
        defer {
            literals.deallocate()
            source.deallocate()
            length.deallocate()
        }
        let clear = 1 << minSize
        for c in 0..<(4096 + 8) { literals[c] = UInt8(truncatingIfNeeded: c) }
        for c in 0..<clear {
            source[c] = UnsafePointer(literals + c)
            length[c] = 1
        }
        let eoi = clear + 1
        var next = clear + 2
        var running = clear + 2
        var codeWidth = minSize + 1
        var mask = (1 << codeWidth) - 1
        var prev = -1
        var prevLength = 0
        var pos = 0
        var bits: UInt64 = 0
        var bitCount = 0
        var dp = 0
        while pos < total {
            if dp &+ 8 <= dataCount {
                // Eight bytes at once; the whole bytes that fit are kept
                // (the bits above them are the next byte's, loaded again).
                bits |= UnsafeRawPointer(data + dp).loadUnaligned(as: UInt64.self).littleEndian << UInt64(bitCount)
                dp &+= (63 &- bitCount) >> 3
                bitCount |= 56
            } else if bitCount < codeWidth {
                while bitCount <= 56 && dp < dataCount {
                    bits |= UInt64(data[dp]) << UInt64(bitCount)
                    bitCount &+= 8
                    dp &+= 1
                }
                if bitCount < codeWidth { break }
            }
            let code = Int(truncatingIfNeeded: bits) & mask
            bits >>= UInt64(codeWidth)
            bitCount &-= codeWidth
            if code >= clear {
                if code == clear {
                    next = clear + 2
                    running = clear + 2
                    codeWidth = minSize + 1
                    mask = (1 << codeWidth) - 1
                    prev = -1
                    continue
                }
                if code == eoi || code > next || (code == next && prev < 0) { break }
            }
            // The width grows once the codes read since the clear code,
            // counted from the first free one, pass what it holds: giflib's
            // rule, the same as growing when the table reaches the limit
            // but for a minimum code size of 1, whose first free code (4)
            // is already there.
            if running < 4097 {
                running &+= 1
                if running > 1 << codeWidth && codeWidth < 12 {
                    codeWidth &+= 1
                    mask = (1 << codeWidth) - 1
                }
            }
            // A code used as it is defined: its string ends with its own
            // first byte, not yet written when the copy reads it.
            let definedNow = code == next
            if prev >= 0 && next < 4096 {
                // The new entry: the previous string and the byte after it.
                source[next] = UnsafePointer(out + (pos &- prevLength))
                length[next] = UInt16(truncatingIfNeeded: prevLength &+ 1)
                next &+= 1
            }
            let n = Int(length[code])
            let from = UnsafeRawPointer(source[code])
            let to = UnsafeMutableRawPointer(out + pos)
            if pos &+ 4096 &+ 8 <= total {
                // Room for any string and eight bytes more: copied eight
                // bytes at a time, the bytes past the string overwritten by
                // what follows it.
                var k = 0
                repeat {
                    to.storeBytes(
                        of: from.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                    k &+= 8
                } while k < n
                if definedNow { out[pos &+ n &- 1] = out[pos] }
            } else {
                for k in 0..<min(n, total - pos) {
                    out[pos + k] = definedNow && k == n - 1 ? out[pos] : from.load(fromByteOffset: k, as: UInt8.self)
                }
            }
            prev = code
            prevLength = n
            pos &+= n
        }
        return min(pos, total)
    }

    /// Copies the data sub-blocks' bytes, concatenated, into `out`
    /// (room for `end - start` bytes); returns how many.
    static func payload(
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
