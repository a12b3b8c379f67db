/// The glyph tables: for each symbol set, the character for every mask.
///
/// Masks are row-major from the top left, as Unicode numbers the cells in
/// the names (`BLOCK OCTANT-1357`: bits 0, 2, 4, 6). The sextant and octant
/// blocks leave out the patterns older characters draw and list the rest
/// in mask order, so they are filled in mask order, skipping the masks of
/// the tables below. `TextSymbolsTests` checks every mask against the names.
extension TextSymbols {
    static let halfGlyphs: [[UInt8]] = [0x20, 0x2580, 0x2584, 0x2588].map(utf8)

    /// U+2580–U+259F, by mask (bit 0 upper left, 1 upper right, 2 lower
    /// left, 3 lower right).
    static let quadrantGlyphs: [[UInt8]] = [
        0x20, 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
        0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588,
    ].map(utf8)

    /// The four sextant patterns drawn by older characters: empty, the left
    /// and right columns, full.
    static let sextantCovered: [UInt8: UInt32] = [0: 0x20, 0b010101: 0x258C, 0b101010: 0x2590, 0b111111: 0x2588]

    /// The 26 octant patterns drawn by older characters: the 16 quadrant
    /// patterns (each quadrant two octants), the upper and lower quarter and
    /// three-quarter blocks (one or three rows), and the six blocks of one
    /// octant or of two in the middle rows of a column (Unicode 16's
    /// Symbols for Legacy Computing Supplement and U+1FBE6/U+1FBE7).
    static let octantCovered: [UInt8: UInt32] = [
        0: 0x20, 255: 0x2588,
        0b0000_0101: 0x2598, 0b0000_1010: 0x259D, 0b0101_0000: 0x2596, 0b1010_0000: 0x2597,  // ▘▝▖▗
        0b0000_1111: 0x2580, 0b1111_0000: 0x2584, 0b0101_0101: 0x258C, 0b1010_1010: 0x2590,  // ▀▄▌▐
        0b1010_0101: 0x259A, 0b0101_1010: 0x259E,  // ▚▞
        0b1111_0101: 0x2599, 0b0101_1111: 0x259B, 0b1010_1111: 0x259C, 0b1111_1010: 0x259F,  // ▙▛▜▟
        0b0000_0011: 0x1FB82, 0b0011_1111: 0x1FB85,  // upper 1/4, 3/4
        0b1100_0000: 0x2582, 0b1111_1100: 0x2586,  // lower 1/4, 3/4
        0b0000_0001: 0x1CEA8, 0b0000_0010: 0x1CEAB,  // left / right half upper one quarter
        0b0100_0000: 0x1CEA3, 0b1000_0000: 0x1CEA0,  // left / right half lower one quarter
        0b0001_0100: 0x1FBE6, 0b0010_1000: 0x1FBE7,  // middle left / right one quarter
    ]

    static let sextantGlyphs: [[UInt8]] = block(masks: 64, first: 0x1FB00, covered: sextantCovered)
    static let octantGlyphs: [[UInt8]] = block(masks: 256, first: 0x1CD00, covered: octantCovered)

    /// A table of `masks` glyphs: the `covered` ones, and the others in
    /// mask order from `first` on.
    private static func block(masks: Int, first: UInt32, covered: [UInt8: UInt32]) -> [[UInt8]] {
        var next = first
        return (0..<masks).map { m in
            if let c = covered[UInt8(m)] { return utf8(c) }
            defer { next += 1 }
            return utf8(next)
        }
    }

    private static func utf8(_ scalar: UInt32) -> [UInt8] {
        Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
    }
}
