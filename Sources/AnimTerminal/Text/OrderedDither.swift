/// Ordered (Bayer) dithering for the 256-colour palette: an offset added to
/// each sub-pixel before it is mapped, taken from an 8×8 threshold matrix
/// by the sub-pixel's position in the frame.
///
/// The offset depends only on the position, never on the frame or on the
/// neighbours (unlike error diffusion), so an area that does not change
/// maps to the same colours in every frame and does not shimmer, and the
/// renderer sends nothing for it. The same offset goes to all three
/// channels, so the pattern varies lightness and keeps the hue.
enum OrderedDither {
    /// The 8×8 Bayer matrix, values 0–63.
    static let matrix: [UInt8] = {
        var m = [UInt8](repeating: 0, count: 64)
        for y in 0..<8 {
            for x in 0..<8 {
                // Bit-reversed interleave of (x xor y) and y.
                let v = x ^ y
                var t = 0
                for bit in 0..<3 {
                    t |= (v >> bit & 1) << (5 - 2 * bit)
                    t |= (y >> bit & 1) << (4 - 2 * bit)
                }
                m[y * 8 + x] = UInt8(t)
            }
        }
        return m
    }()

    /// Levels the offsets span: about the spacing of the cube's upper levels
    /// (40), so a flat colour between two levels dithers between them.
    static let spread = 40

    /// The offset, in levels, for the sub-pixel at (x, y): centred on 0,
    /// from -spread/2 to just under +spread/2.
    static let offsets: [Int16] = matrix.map { Int16((Int($0) * 2 + 1) * spread / 128 - spread / 2) }

    @inline(__always)
    static func offset(x: Int, y: Int) -> Int { Int(offsets[(y & 7) << 3 | (x & 7)]) }
}
