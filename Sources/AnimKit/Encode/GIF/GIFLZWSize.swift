/// The size in bytes of the GIF LZW data for a run of indices (the code
/// stream and its sub-block lengths), without writing it: to choose
/// between two ways of coding a frame. It follows the usual encoder
/// (giflib's): codes widen when the table reaches the next power of two,
/// and a clear code restarts the table once it holds 4096 codes.
enum GIFLZWSize {
    static func bytes(_ indices: UnsafeBufferPointer<UInt8>, bitsPerPixel: Int) -> Int {
        guard !indices.isEmpty else { return 0 }
        let minimum = max(bitsPerPixel, 2)
        let clear = 1 << minimum
        var next = clear + 2, width = minimum + 1, bits = width     // the first clear code
        // Open addressing: key (prefix << 8 | byte) + 1 (0 = empty) → code.
        let slots = 1 << 13
        var keys = [Int32](repeating: 0, count: slots), codes = [Int16](repeating: 0, count: slots)
        var prefix = Int(indices[0])
        for k in indices.dropFirst() {
            let key = Int32(prefix << 8 | Int(k)) + 1
            var s = Int(UInt32(bitPattern: key &* -1_640_531_535) >> 19)
            var found = -1
            while keys[s] != 0 {
                if keys[s] == key { found = Int(codes[s]); break }
                s = (s + 1) & (slots - 1)
            }
            if found >= 0 { prefix = found; continue }
            bits += width
            if next < 4096 {
                keys[s] = key; codes[s] = Int16(next)
                if next == 1 << width && width < 12 { width += 1 }
                next += 1
            } else {
                bits += width                                   // clear, and start again
                for i in 0..<slots { keys[i] = 0 }
                next = clear + 2; width = minimum + 1
            }
            prefix = Int(k)
        }
        bits += 2 * width                                       // the last code and end of information
        let bytes = (bits + 7) / 8
        return bytes + (bytes + 254) / 255 + 1
    }
}
