/// GIF's LZW compression: the size of a run of indices once compressed (to
/// choose between ways of coding a frame without writing them), and the
/// compressed bytes the GIF writer writes. Codes widen when the table
/// reaches the next power of two, as in giflib. What happens when the
/// table fills (code 4094; giflib keeps 4095 unused) is a `ClearRule`:
/// each is counted and the smallest written, as gifsicle -O3 also tries
/// more than one.
enum GIFLZWEncoder {
    /// Bytes of the LZW data for `indices` (the code stream in sub-blocks,
    /// their lengths and the terminator; not the code size byte), by the
    /// clear rule that codes them in fewest bits.
    static func size(_ indices: UnsafeBufferPointer<UInt8>, bitsPerPixel: Int) -> Int {
        guard !indices.isEmpty else { return 0 }
        func bytes(_ rule: ClearRule) -> (Int, filled: Bool) {
            var counter = BitCounter()
            let filled = compress(indices, minimumCodeSize: max(bitsPerPixel, 2), clear: rule, into: &counter)
            let n = (counter.bits + 7) / 8
            return (n + (n + 254) / 255 + 1, filled)
        }
        let eager = bytes(.eager)
        guard eager.filled else { return eager.0 }  // the table never filled: the same codes
        return ClearRule.allCases.dropFirst().reduce(eager.0) { min($0, bytes($1).0) }
    }

    /// When a full code table is cleared.
    enum ClearRule: CaseIterable {
        /// At once, as giflib does.
        case eager
        /// Once the codes get short (see `compress`).
        case deferred
        /// The same, going back to where the codes began to be short
        /// (gifsicle's rule, see `compress`).
        case rewinding
        /// Never: the full table serves the rest of the image.
        case never
    }

    /// The image data record for `indices`: the minimum code size byte,
    /// the LZW codes in sub-blocks of at most 255 bytes, and the terminator.
    /// Its size less one is `size`'s: the same rule wins (each rule is
    /// written, not counted then written: one pass when the table never
    /// fills, three when it does).
    static func encode(_ indices: UnsafeBufferPointer<UInt8>, bitsPerPixel: Int) -> [UInt8] {
        let minimum = max(bitsPerPixel, 2)
        var writer = BitWriter()
        if !indices.isEmpty && compress(indices, minimumCodeSize: minimum, clear: .eager, into: &writer) {
            for rule in ClearRule.allCases.dropFirst() {
                var other = BitWriter()
                compress(indices, minimumCodeSize: minimum, clear: rule, into: &other)
                other.flush()
                writer.flush()
                if other.bytes.count < writer.bytes.count { writer = other }
            }
        }
        writer.flush()
        var out = [UInt8]()
        out.reserveCapacity(writer.bytes.count + writer.bytes.count / 255 + 3)
        out.append(UInt8(minimum))
        appendSubBlocks(writer.bytes, to: &out)
        return out
    }

    /// `bytes` as data sub-blocks of at most 255 bytes, then the terminator.
    static func appendSubBlocks(_ bytes: [UInt8], to out: inout [UInt8]) {
        for start in stride(from: 0, to: bytes.count, by: 255) {
            let n = min(255, bytes.count - start)
            out.append(UInt8(n))
            out += bytes[start..<(start + n)]
        }
        out.append(0)
    }

    /// The compressor: greedy longest match in an open-addressing table.
    /// `.deferred` keeps a full table while the codes stay long
    /// (`codesAreShort`); `.rewinding` clears back where the full table
    /// stopped paying (the first code of fewer than 7 pixels since it
    /// filled, unless one of more than 50 came after). True when the table
    /// filled.
    @inline(__always)
    @discardableResult
    private static func compress<Output: CodeOutput>(
        _ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize minimum: Int, clear rule: ClearRule,
        into output: inout Output
    ) -> Bool {
        let clear = 1 << minimum
        var next = clear + 2
        var width = minimum + 1
        output.put(clear, width: width)
        // Open addressing: key (prefix << 8 | byte) + 1 (0 = empty) → code.
        let slots = 1 << 13
        var keys = [Int32](repeating: 0, count: slots)
        var codes = [Int16](repeating: 0, count: slots)
        var prefix = Int(indices[0])
        var filled = false
        // Pixels per code, averaged over about the last 16 codes (× 256).
        var run = 1
        var average = 16 * 16
        var position = 0
        // `.rewinding`: where to go back to and clear (the first pixel of
        // a code, and the bits written before it).
        var rewind: (position: Int, bits: Int)?
        while position + 1 < indices.count {
            position += 1
            let k = indices[position]
            run += 1
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
            if rule == .rewinding && next >= 4095 {
                let length = run - 1
                let short = codesAreShort(average, left: indices.count - position, minimum: minimum)
                if (short || length < 7) && rewind == nil {
                    rewind = (position - length, output.bits)
                } else if !short && length > 50 {
                    rewind = nil
                }
                if short, let back = rewind {
                    output.truncate(toBits: back.bits)
                    output.put(clear, width: width)
                    for i in 0..<slots { keys[i] = 0 }
                    next = clear + 2
                    width = minimum + 1
                    rewind = nil
                    position = back.position
                    prefix = Int(indices[position])
                    run = 1
                    continue
                }
            }
            output.put(prefix, width: width)
            average += (run - 1) * 16 - average / 16
            run = 1
            if next < 4095 {  // giflib keeps 4095 unused
                keys[s] = key
                codes[s] = Int16(next)
                if next == 1 << width && width < 12 { width += 1 }
                next += 1
            } else {
                filled = true
                if rule == .eager
                    || (rule == .deferred && codesAreShort(average, left: indices.count - position, minimum: minimum))
                {
                    output.put(clear, width: width)  // start again
                    for i in 0..<slots { keys[i] = 0 }
                    next = clear + 2
                    width = minimum + 1
                }
            }
            prefix = Int(k)
        }
        output.put(prefix, width: width)
        output.put(clear + 1, width: width)  // end of information
        return filled
    }

    /// gifsicle's test for a full table that no longer pays: the last
    /// codes (`average` pixels a code, × 256) are shorter than 36 /
    /// `minimum` pixels, or the `left` pixels would need more than about
    /// 3000 codes at that rate.
    @inline(__always)
    private static func codesAreShort(_ average: Int, left: Int, minimum: Int) -> Bool {
        average < 36 * 16 * 16 / minimum || average * 3000 < left * 16 * 16
    }

    private protocol CodeOutput {
        mutating func put(_ code: Int, width: Int)
        /// Bits written so far.
        var bits: Int { get }
        /// Forgets what was written past `bits`.
        mutating func truncate(toBits bits: Int)
    }

    private struct BitCounter: CodeOutput {
        var bits = 0
        @inline(__always) mutating func put(_ code: Int, width: Int) { bits += width }
        mutating func truncate(toBits bits: Int) { self.bits = bits }
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
        var bits: Int { bytes.count * 8 + count }

        mutating func truncate(toBits bits: Int) {
            let whole = bits / 8
            if whole >= bytes.count {
                count = bits - bytes.count * 8
                acc &= (1 << count) - 1
                return
            }
            count = bits % 8
            acc = count > 0 ? Int(bytes[whole]) & ((1 << count) - 1) : 0
            bytes.removeSubrange(whole...)
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
