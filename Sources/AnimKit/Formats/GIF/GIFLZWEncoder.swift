/// GIF's LZW compression, in Swift: the size of a run of indices once
/// compressed (to choose between ways of coding a frame without writing
/// them), and the compressed bytes themselves (`GIFReorder` rewrites
/// frames; the decoder's side is `GIF/GIFLZWDecoder.swift`). It follows the usual
/// encoder (giflib's): codes widen when the table reaches the next power
/// of two, and a clear code restarts the table when it would take code
/// 4095, so `size` is exactly what giflib writes and `encode` writes the
/// same codes.
enum GIFLZWEncoder {
    /// Bytes of the LZW data for `indices` (the code stream in sub-blocks,
    /// their lengths and the terminator; not the code size byte).
    static func size(_ indices: UnsafeBufferPointer<UInt8>, bitsPerPixel: Int) -> Int {
        guard !indices.isEmpty else { return 0 }
        var counter = BitCounter()
        compress(indices, minimumCodeSize: max(bitsPerPixel, 2), into: &counter)
        let bytes = (counter.bits + 7) / 8
        return bytes + (bytes + 254) / 255 + 1
    }

    /// The image data record for `indices`: the minimum code size byte,
    /// the LZW codes in sub-blocks of at most 255 bytes, and the terminator.
    static func encode(_ indices: UnsafeBufferPointer<UInt8>, bitsPerPixel: Int) -> [UInt8] {
        let minimum = max(bitsPerPixel, 2)
        var writer = BitWriter()
        if !indices.isEmpty { compress(indices, minimumCodeSize: minimum, into: &writer) }
        writer.flush()
        var out = [UInt8]()
        out.reserveCapacity(writer.bytes.count + writer.bytes.count / 255 + 3)
        out.append(UInt8(minimum))
        var start = 0
        while start < writer.bytes.count {
            let n = min(255, writer.bytes.count - start)
            out.append(UInt8(n))
            out.append(contentsOf: writer.bytes[start..<(start + n)])
            start += n
        }
        out.append(0)
        return out
    }

    /// The compressor: greedy longest match in an open-addressing table.
    @inline(__always)
    private static func compress<Output: CodeOutput>(
        _ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize minimum: Int,
        into output: inout Output
    ) {
        let clear = 1 << minimum
        var next = clear + 2
        var width = minimum + 1
        output.put(clear, width: width)
        // Open addressing: key (prefix << 8 | byte) + 1 (0 = empty) → code.
        let slots = 1 << 13
        var keys = [Int32](repeating: 0, count: slots)
        var codes = [Int16](repeating: 0, count: slots)
        var prefix = Int(indices[0])
        for k in indices.dropFirst() {
            let key = Int32(prefix << 8 | Int(k)) + 1
            var s = Int(UInt32(bitPattern: key &* -1_640_531_535) >> 19)
            var found = -1
            while keys[s] != 0 {
                if keys[s] == key {
                    found = Int(codes[s])
                    break
                }
                s = (s + 1) & (slots - 1)
            }
            if found >= 0 {
                prefix = found
                continue
            }
            output.put(prefix, width: width)
            if next < 4095 {  // giflib keeps 4095 unused
                keys[s] = key
                codes[s] = Int16(next)
                if next == 1 << width && width < 12 { width += 1 }
                next += 1
            } else {
                output.put(clear, width: width)  // start again
                for i in 0..<slots { keys[i] = 0 }
                next = clear + 2
                width = minimum + 1
            }
            prefix = Int(k)
        }
        output.put(prefix, width: width)
        output.put(clear + 1, width: width)  // end of information
    }

    private protocol CodeOutput { mutating func put(_ code: Int, width: Int) }

    private struct BitCounter: CodeOutput {
        var bits = 0
        @inline(__always) mutating func put(_ code: Int, width: Int) { bits += width }
    }

    /// Codes packed least significant bit first, as GIF stores them.
    private struct BitWriter: CodeOutput {
        var bytes: [UInt8] = []
        var acc = 0, count = 0
        @inline(__always) mutating func put(_ code: Int, width: Int) {
            acc |= code << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: acc))
                acc >>= 8
                count -= 8
            }
        }
        mutating func flush() {
            if count > 0 {
                bytes.append(UInt8(truncatingIfNeeded: acc))
                acc = 0
                count = 0
            }
        }
    }
}
