import AnimKit

/// Which colour each sixel register holds, kept from frame to frame so that
/// a colour that stays keeps its register.
///
/// A rectangle's colours are the exact ones when they fit the registers,
/// else a `ColorQuantizer` palette (the previous one while it serves about
/// as well as when made: a steady scene keeps its palette). Each colour
/// gets its register, else a free one, else the one unused for longest
/// that this rectangle does not need. Every image defines its registers
/// (`SixelEncoder`), so what a register held only decides numbers.
final class SixelPalette {
    /// Registers the terminal has (2…1024).
    let registerCount: Int
    /// Per register its colour, 0 when free.
    private(set) var colors: [UInt32]
    private var lastUse: [Int]
    private var registerOf: [UInt32: Int] = [:]
    private var clock = 0
    private let quantizer: ColorQuantizer
    /// The last quantised palette and its error when made.
    private var quantized: (matcher: PaletteMatcher, error: Double)?
    /// Each colour's register under the mapping in use.
    private let colorMap = SixelColorMap()

    /// A mapping of colours to registers for one rectangle.
    struct Mapping {
        let matcher: PaletteMatcher
        /// The register of each entry of `matcher.colors`.
        let registers: [UInt16]
        /// Whether every colour has its own entry (else they were quantised).
        let exact: Bool
    }

    init(registers: Int) {
        registerCount = min(max(registers, 2), 1024)
        colors = [UInt32](repeating: 0, count: registerCount)
        lastUse = [Int](repeating: -1, count: registerCount)
        quantizer = ColorQuantizer(exactLimit: registerCount)
    }

    /// Writes the register of each of the pixels `keys` into `out`
    /// (`SixelEncoder.none` for 0: not drawn) and returns the mapping for
    /// them; nil when none is drawn.
    func registers(for keys: UnsafeBufferPointer<UInt32>, into out: UnsafeMutableBufferPointer<UInt16>) -> Mapping? {
        quantizer.reset()
        quantizer.add(keys)
        guard quantizer.pixelCount > 0 else { return nil }
        let (chosen, exact) = choose()
        clock += 1
        let mapping = Mapping(matcher: chosen, registers: assign(chosen.colors), exact: exact)
        colorMap.map(keys, mapping, into: out)
        return mapping
    }

    /// The palette for the pixels counted, and whether it holds them all.
    private func choose() -> (PaletteMatcher, exact: Bool) {
        if let exact = quantizer.distinctColors, exact.count <= registerCount {
            return (PaletteMatcher(exact), true)
        }
        if let quantized, quantizer.meanSquaredError(with: quantized.matcher) <= quantized.error * 1.25 + 1 {
            return (quantized.matcher, false)
        }
        let palette = quantizer.palette(maxColors: registerCount)
        let matcher = PaletteMatcher(palette.colors.map(Self.onGrid))
        quantized = (matcher, palette.meanSquaredError)
        return (matcher, false)
    }

    /// A quantised colour (a mean of colours) moved back onto the percent grid.
    private static func onGrid(_ c: UInt32) -> UInt32 {
        SixelPercent.level.withUnsafeBufferPointer {
            SixelPercent.key(UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF), levels: $0)
        }
    }

    /// A register for each colour (at most `registerCount`, distinct or not).
    private func assign(_ palette: [UInt32]) -> [UInt16] {
        var result = [UInt16](repeating: 0, count: palette.count)
        var pending: [Int] = []
        for (i, c) in palette.enumerated() {
            if let r = registerOf[c] {
                result[i] = UInt16(r)
                lastUse[r] = clock
            } else {
                pending.append(i)
            }
        }
        guard !pending.isEmpty else { return result }
        // Registers this rectangle does not use, least recently used first.
        let spare = (0..<registerCount).filter { lastUse[$0] != clock }.sorted { lastUse[$0] < lastUse[$1] }
        var next = 0
        for i in pending {
            let c = palette[i]
            if let r = registerOf[c] {
                result[i] = UInt16(r)
                continue
            }  // a repeat within the palette
            let r = spare[next]
            next += 1
            if colors[r] != 0 { registerOf[colors[r]] = nil }
            colors[r] = c
            registerOf[c] = r
            lastUse[r] = clock
            result[i] = UInt16(r)
        }
        return result
    }
}
