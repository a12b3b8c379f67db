/// One bit for each of the 2²⁴ RGB colours (2 MiB).
struct ColorBitmap {
    private var words = [UInt64](repeating: 0, count: 1 << 18)

    /// How many colours are marked.
    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Marks the colours of `frame` inside `r`, but for fully transparent
    /// pixels (they take the key).
    mutating func mark(_ frame: RGBAImage, _ r: Rect, width: Int) {
        words.withUnsafeMutableBufferPointer { w in
            _ = frame.allPixels(in: r, width: width) { p in
                if p >> 24 != 0 { w[Int(p & 0xFF_FFFF) >> 6] |= 1 << UInt64(p & 63) }
                return true
            }
        }
    }

    private func marked(_ c: UInt32) -> Bool { words[Int(c >> 6)] & (1 << UInt64(c & 63)) != 0 }

    /// A key a later frame is unlikely to show (each one that does has the
    /// frames so far written again): the unmarked grey level farthest from
    /// every marked one.
    func keyGrey() -> UInt32? {
        let free = (0..<256).filter { !marked(UInt32($0) * 0x01_0101) }
        let used = (0..<256).filter { marked(UInt32($0) * 0x01_0101) }
        guard !free.isEmpty else { return nil }
        let far = free.max { a, b in
            (used.map { abs($0 - a) }.min() ?? 256) < (used.map { abs($0 - b) }.min() ?? 256)
        }!
        return UInt32(far)
    }

    /// The RGB key (R | G << 8 | B << 16): the first unmarked colour, nil
    /// when every colour is marked. Near black, it deflates best beside
    /// dark backgrounds (better than a colour far from every marked one).
    func keyColour() -> UInt32? {
        for (i, word) in words.enumerated() where word != ~0 {
            return UInt32(i << 6 + (~word).trailingZeroBitCount)
        }
        return nil
    }
}
