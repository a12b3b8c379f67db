/// A GIF colour table: opaque colours, then (when asked for) one entry kept
/// for transparency, padded to a power of two as GIF requires.
///
/// Colours are pixel keys (`GIFFrameDiff.key`: `0xFFRRGGBB`), so a source
/// pixel's exact colour is found by one hash probe.
struct GIFPalette {
    /// Opaque colours, `0xFFRRGGBB`; their indices are the table indices.
    let colors: [UInt32]
    /// The transparent entry, just after the colours, if there is one;
    /// or, when `transparentInPlace`, one of the colours' own entries.
    let transparentIndex: Int?
    /// The transparent entry is a colour's entry that the frame does not
    /// use (a full global table lends one per frame, as gifsicle does),
    /// so entries are written in place, not with the transparent one first.
    let transparentInPlace: Bool
    /// Entries in the written table: 2, 4, … 256.
    let tableSize: Int
    /// log2 of `tableSize`.
    let bitsPerPixel: Int
    /// Open-addressing table key → index + 1 (0: empty), for exact matches.
    private let exactSlots: [UInt32]
    private let exactValues: [UInt8]

    init(colors: [UInt32], transparent: Bool) {
        precondition(colors.count + (transparent ? 1 : 0) <= 256, "GIFPalette: more than 256 entries")
        self.init(colors: colors, transparentIndex: transparent ? colors.count : nil, inPlace: false)
    }

    /// `colors` with entry `index`, a colour the frame does not use or
    /// the table's padding past its colours, standing for transparency.
    init(colors: [UInt32], transparentAt index: Int) {
        precondition(index < 1 << GIFEncoder.bits(max(colors.count - 1, 1)), "GIFPalette: transparent entry outside the table")
        self.init(colors: colors, transparentIndex: index, inPlace: true)
    }

    private init(colors: [UInt32], transparentIndex: Int?, inPlace: Bool) {
        self.colors = colors
        self.transparentIndex = transparentIndex
        transparentInPlace = inPlace
        bitsPerPixel = GIFEncoder.bits(
            max(colors.count + (transparentIndex != nil && !inPlace ? 1 : 0) - 1, inPlace ? transparentIndex! : 0))
        tableSize = 1 << bitsPerPixel
        var slots = [UInt32](repeating: 0, count: 512)
        var values = [UInt8](repeating: 0, count: 512)
        for (i, c) in colors.enumerated() {
            var s = GIFPalette.slot(c)
            while slots[s] != 0 && slots[s] != c { s = (s + 1) & 511 }
            if slots[s] == 0 {
                slots[s] = c
                values[s] = UInt8(i)
            }
        }
        exactSlots = slots
        exactValues = values
    }

    /// The index of exactly this colour key, if the palette has it.
    @inline(__always)
    func exactIndex(_ key: UInt32) -> Int? {
        var s = GIFPalette.slot(key)
        while true {
            let k = exactSlots[s]
            if k == key { return Int(exactValues[s]) }
            if k == 0 { return nil }
            s = (s + 1) & 511
        }
    }

    /// True when every colour of `keys` is in the palette.
    func containsAll(_ keys: [UInt32]) -> Bool {
        keys.allSatisfy { exactIndex($0) != nil }
    }

    @inline(__always)
    private static func slot(_ key: UInt32) -> Int {
        Int((key &* 0x9E37_79B1) >> 23)
    }
}
