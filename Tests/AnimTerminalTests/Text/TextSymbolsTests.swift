import Testing

@testable import AnimTerminal

/// The glyph tables against Unicode's own description of each character:
/// its name (`BLOCK OCTANT-1357`, `QUADRANT UPPER LEFT AND LOWER RIGHT`,
/// `LEFT HALF UPPER ONE QUARTER BLOCK` …) read as a shape and laid over the
/// symbols' sub-pixel grid.
struct TextSymbolsTests {
    /// A rectangle in fractions of the cell: x from x0 to x1, y from y0 (top) to y1.
    typealias Rect = (x0: Double, x1: Double, y0: Double, y1: Double)

    static let namedBlocks: [String: [Rect]] = [
        "SPACE": [],
        "FULL BLOCK": [(0, 1, 0, 1)],
        "UPPER HALF BLOCK": [(0, 1, 0, 0.5)], "LOWER HALF BLOCK": [(0, 1, 0.5, 1)],
        "LEFT HALF BLOCK": [(0, 0.5, 0, 1)], "RIGHT HALF BLOCK": [(0.5, 1, 0, 1)],
        "UPPER ONE QUARTER BLOCK": [(0, 1, 0, 0.25)], "UPPER THREE QUARTERS BLOCK": [(0, 1, 0, 0.75)],
        "LOWER ONE QUARTER BLOCK": [(0, 1, 0.75, 1)], "LOWER THREE QUARTERS BLOCK": [(0, 1, 0.25, 1)],
        "LEFT HALF UPPER ONE QUARTER BLOCK": [(0, 0.5, 0, 0.25)], "RIGHT HALF UPPER ONE QUARTER BLOCK": [(0.5, 1, 0, 0.25)],
        "LEFT HALF LOWER ONE QUARTER BLOCK": [(0, 0.5, 0.75, 1)], "RIGHT HALF LOWER ONE QUARTER BLOCK": [(0.5, 1, 0.75, 1)],
        "MIDDLE LEFT ONE QUARTER BLOCK": [(0, 0.5, 0.25, 0.75)], "MIDDLE RIGHT ONE QUARTER BLOCK": [(0.5, 1, 0.25, 0.75)],
    ]

    static let quadrants: [String: Rect] = [
        "UPPER LEFT": (0, 0.5, 0, 0.5), "UPPER RIGHT": (0.5, 1, 0, 0.5),
        "LOWER LEFT": (0, 0.5, 0.5, 1), "LOWER RIGHT": (0.5, 1, 0.5, 1),
    ]

    /// The shape a character's name describes, or nil for a name not understood.
    static func shape(_ name: String) -> [Rect]? {
        if let rects = namedBlocks[name] { return rects }
        if name.hasPrefix("QUADRANT ") {
            let parts = name.dropFirst("QUADRANT ".count).split(separator: " AND ").map(String.init)
            let rects = parts.compactMap { quadrants[$0] }
            return rects.count == parts.count ? rects : nil
        }
        for (prefix, rows) in [("BLOCK SEXTANT-", 3.0), ("BLOCK OCTANT-", 4.0)] where name.hasPrefix(prefix) {
            return name.dropFirst(prefix.count).map { d -> Rect in
                let n = Double(Int(String(d))! - 1)
                let x = n.truncatingRemainder(dividingBy: 2)
                let y = (n / 2).rounded(.down)
                return (x / 2, (x + 1) / 2, y / rows, (y + 1) / rows)
            }
        }
        return nil
    }

    /// The mask of `rects` over the grid of `symbols`, or nil when a
    /// sub-pixel is partly covered (the shape does not fit the grid).
    static func mask(_ rects: [Rect], _ symbols: TextSymbols) -> UInt8? {
        var mask: UInt8 = 0
        for i in 0..<symbols.count {
            let cx = Double(i % symbols.across)
            let cy = Double(i / symbols.across)
            let w = 1 / Double(symbols.across)
            let h = 1 / Double(symbols.down)
            let probes = [(0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9), (0.5, 0.5)].map { ((cx + $0.0) * w, (cy + $0.1) * h) }
            let inside = probes.map { p in rects.contains { p.0 > $0.x0 && p.0 < $0.x1 && p.1 > $0.y0 && p.1 < $0.y1 } }
            guard inside.allSatisfy({ $0 == inside[0] }) else { return nil }
            if inside[0] { mask |= 1 << i }
        }
        return mask
    }

    @Test(arguments: TextSymbols.allCases)
    func everyMaskHasOneGlyphOfItsShape(_ symbols: TextSymbols) {
        var glyphs = Set<[UInt8]>()
        for m in 0...Int(symbols.fullMask) {
            let bytes = symbols.glyph(UInt8(m))
            glyphs.insert(bytes)
            let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
            #expect(scalars.count == 1, "\(symbols) mask \(m): one scalar")
            guard let name = scalars.first?.properties.name, let rects = Self.shape(name) else {
                Issue.record("\(symbols) mask \(m): \(scalars) has no name read as a shape")
                continue
            }
            #expect(Self.mask(rects, symbols) == UInt8(m), "\(symbols) mask \(m): \(name)")
        }
        #expect(glyphs.count == Int(symbols.fullMask) + 1, "\(symbols): a glyph per mask, all different")
    }

    @Test func gridsAndRanges() {
        #expect(
            TextSymbols.allCases.map { [$0.across, $0.down, $0.count, Int($0.fullMask)] }
                == [[1, 2, 2, 3], [2, 2, 4, 15], [2, 3, 6, 63], [2, 4, 8, 255]])
        #expect(TextSymbols.sextant.resolution == .cells(across: 2, down: 3))
        #expect(TextBackend(mode: .trueColor, tolerance: 0, background: .none).resolution == .cells(across: 1, down: 2))
        #expect(
            TextBackend(mode: .trueColor, tolerance: 0, background: .none, symbols: .octant).resolution
                == .cells(across: 2, down: 4))
        // The octant block is U+1CD00–U+1CDE5, sextants U+1FB00–U+1FB3B.
        let octants = (0...255).map { TextSymbols.octant.character(UInt8($0)).unicodeScalars.first!.value }
        #expect(octants.filter { (0x1CD00...0x1CDE5).contains($0) }.count == 230)
        let sextants = (0...63).map { TextSymbols.sextant.character(UInt8($0)).unicodeScalars.first!.value }
        #expect(sextants.filter { (0x1FB00...0x1FB3B).contains($0) }.count == 60)
        #expect(TextSymbols.quadrant.character(0b1001) == "▚" && TextSymbols.sextant.character(0b010101) == "▌")
        #expect(TextSymbols.octant.character(0b0000_0001) == "\u{1CEA8}" && TextSymbols.octant.character(4) == "\u{1CD00}")
    }

    /// A pattern and its inverse with the colours swapped have one
    /// canonical form, which shows the same sub-pixel colours.
    @Test(arguments: TextSymbols.allCases)
    func canonicalForms(_ symbols: TextSymbols) {
        let colours: [TerminalColor] = [.terminalDefault, .rgb(1, 2, 3), .rgb(200, 0, 9)]
        for m in 0...Int(symbols.fullMask) {
            for f in colours {
                for b in colours {
                    let cell = Cell(mask: UInt8(m), fg: f, bg: b)
                    let inverse = Cell(mask: ~UInt8(m) & symbols.fullMask, fg: b, bg: f)
                    let c = symbols.canonical(cell)
                    #expect(c == symbols.canonical(inverse) && symbols.canonical(c) == c)
                    #expect((0..<symbols.count).map(c.color(at:)) == (0..<symbols.count).map(cell.color(at:)))
                    let solid = (0..<symbols.count).allSatisfy { cell.color(at: $0) == cell.color(at: 0) }
                    #expect(
                        solid
                            ? c == .solid(cell.color(at: 0))
                            : c.fg != .terminalDefault && c.mask & 1 == 0 || c.bg == .terminalDefault)
                }
            }
        }
        #expect(Cell(top: .rgb(1, 1, 1), bottom: .terminalDefault) == Cell(mask: 1, fg: .rgb(1, 1, 1), bg: .terminalDefault))
        #expect(Cell(top: .rgb(1, 1, 1), bottom: .rgb(2, 2, 2)) == Cell(mask: 2, fg: .rgb(2, 2, 2), bg: .rgb(1, 1, 1)))
    }
}
