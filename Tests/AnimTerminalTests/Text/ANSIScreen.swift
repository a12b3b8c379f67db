import AnimTerminal
import AnimTestSupport

/// A small terminal emulator for tests: cursor positioning (CUP, CUF), SGR
/// colours (truecolor, 256, defaults, reset), synchronized-output markers
/// and UTF-8 text. Unknown sequences fail the test.
struct ANSIScreen {
    struct Glyph: Equatable {
        var character: Character = " "
        var fg: TerminalColor = .terminalDefault
        var bg: TerminalColor = .terminalDefault
    }

    let columns: Int, rows: Int
    var cells: [Glyph]
    var row = 1, column = 1
    var fg: TerminalColor = .terminalDefault, bg: TerminalColor = .terminalDefault
    var syncDepth = 0
    var pendingWrap = false
    var errors: [String] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = [Glyph](repeating: Glyph(), count: columns * rows)
    }

    mutating func feed(_ bytes: [UInt8]) {
        for (_, piece) in EscapeScanner(bytes) {
            switch piece {
            case .csi(let params, let final): control(params, final)
            case .text(let run): text(run)
            default:
                errors.append("unexpected \(piece)")
                return
            }
        }
    }

    /// Text: carriage returns, line feeds and UTF-8 characters.
    mutating func text(_ run: ArraySlice<UInt8>) {
        var i = run.startIndex
        while i < run.endIndex {
            if run[i] == 0x0D {
                column = 1
                pendingWrap = false
                i += 1
                continue
            }
            if run[i] == 0x0A {
                // Down a row; the column depends on the tty (ONLCR may add a
                // CR), so unless it is 1 either way it is left undefined:
                // writing before a CR or an absolute column is an error.
                if row >= rows { errors.append("line feed on the last row scrolls") }
                row += 1
                column = column == 1 && !pendingWrap ? 1 : 0
                pendingWrap = false
                i += 1
                continue
            }
            // One UTF-8 scalar.
            let n = run[i] < 0x80 ? 1 : run[i] < 0xE0 ? 2 : run[i] < 0xF0 ? 3 : 4
            put(String(decoding: run[i..<min(i + n, run.endIndex)], as: UTF8.self).first!)
            i += n
        }
    }

    /// Like a terminal, writing in the last column leaves the cursor there
    /// with a wrap pending: the next character would go to the next row.
    mutating func put(_ c: Character) {
        guard !pendingWrap else {
            errors.append("wrapped past the last column at row \(row)")
            return
        }
        guard row >= 1, row <= rows, column >= 1, column <= columns else {
            errors.append("write outside at \(row),\(column)")
            return
        }
        cells[(row - 1) * columns + column - 1] = Glyph(character: c, fg: fg, bg: bg)
        if column == columns { pendingWrap = true } else { column += 1 }
    }

    mutating func control(_ params: String, _ final: UInt8) {
        let p = EscapeScanner.numbers(params)
        let n = max(p.first ?? 1, 1)
        if final != UInt8(ascii: "m") && final != UInt8(ascii: "h") && final != UInt8(ascii: "l") { pendingWrap = false }
        switch final {
        case UInt8(ascii: "H"): (row, column) = EscapeScanner.cursor(params)
        case UInt8(ascii: "C"): column = min(column + n, columns)
        case UInt8(ascii: "D"): column = max(column - n, 1)
        case UInt8(ascii: "G"): column = n
        case UInt8(ascii: "A"): row = max(row - n, 1)
        case UInt8(ascii: "B"): row = min(row + n, rows)
        case UInt8(ascii: "h") where params == "?2026": syncDepth += 1
        case UInt8(ascii: "l") where params == "?2026": syncDepth -= 1
        case UInt8(ascii: "m"): sgr(p)
        default: errors.append("unknown CSI \(params)\(Character(UnicodeScalar(final)))")
        }
    }

    mutating func sgr(_ p: [Int]) {
        var k = 0
        while k < p.count {
            switch p[k] {
            case 0:
                fg = .terminalDefault
                bg = .terminalDefault
            case 1: break  // bold (titles): the glyphs are what is compared
            case 39: fg = .terminalDefault
            case 49: bg = .terminalDefault
            case 38, 48:
                let foreground = p[k] == 38
                let color: TerminalColor
                if p[k + 1] == 2 {
                    color = .rgb(UInt8(p[k + 2]), UInt8(p[k + 3]), UInt8(p[k + 4]))
                    k += 4
                } else {
                    let (r, g, b) = XtermPalette.rgb(UInt8(p[k + 2]))
                    color = .rgb(r, g, b)
                    k += 2
                }
                if foreground { fg = color } else { bg = color }
            default: errors.append("unknown SGR \(p[k])")
            }
            k += 1
        }
    }

    /// What each cell shows, read back from its glyph as drawn with
    /// `symbols`: the glyph's mask, the foreground and background colours,
    /// in canonical form. A character that is not one of the symbols'
    /// glyphs reads as a cell no grid holds (mask 0xFF).
    func visual(_ symbols: TextSymbols = .half) -> [Cell] {
        let masks = Self.masks(symbols)
        return cells.map { g in
            guard let mask = masks[g.character] else { return Cell(mask: 0xFF, fg: .rgb(1, 2, 3), bg: .rgb(4, 5, 6)) }
            return symbols.canonical(Cell(mask: mask, fg: g.fg, bg: g.bg))
        }
    }

    /// Each glyph of `symbols` to its mask (a space and the full block too).
    static func masks(_ symbols: TextSymbols) -> [Character: UInt8] {
        var map: [Character: UInt8] = [:]
        for m in 0...Int(symbols.fullMask) { map[symbols.character(UInt8(m))] = UInt8(m) }
        return map
    }

    /// The visual cells of the region at 1-based (row, column), size of `grid`.
    func region(_ grid: CellGrid, row: Int = 1, column: Int = 1) -> [Cell] {
        var out: [Cell] = []
        let v = visual(grid.symbols)
        for r in 0..<grid.rows { for c in 0..<grid.columns { out.append(v[(row - 1 + r) * columns + column - 1 + c]) } }
        return out
    }
}
