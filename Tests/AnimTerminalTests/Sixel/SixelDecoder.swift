import AnimTerminal
import AnimTestSupport

/// A small sixel terminal for tests: a screen of `columns` × `rows` cells
/// of `cellWidth` × `cellHeight` pixels, one key a pixel (`0xFFRRGGBB`, 0
/// where the terminal's background shows). It understands what the sixel
/// backend may send — CUP, SGR 0, ECH, sixel images (raster attributes,
/// colour definitions and selections, `!` repeats, `$`, `-`), tmux's
/// passthrough — and reports anything else, and every misuse, in `errors`.
///
/// It models what xterm (379) does, found by writing sixels to it and
/// reading the screen back:
///
/// - Private colour registers: each image starts with no register defined
///   by it (xterm's are the VT340's 16 defaults, the rest black; using them
///   is an error here). `#n;2;r;g;b` only defines register n; only `#n`
///   with no other parameter selects it. An image starts with register 3
///   selected (the VT340's green): drawing before a selection, or with a
///   register the image has not defined, is an error. Pixels keep their
///   register and take its colour as defined at the image's end.
/// - Every image that draws a sixel character (even a blank `?`) becomes
///   a graphic in one of `maxGraphics` (16) slots: the first free one,
///   else the one whose top cell row is the smallest (the first such
///   slot) is dropped, at the image's start, also when the new image ends
///   up drawing nothing. A dropped graphic's pixels are gone: what is
///   under them shows when xterm repaints (an expose), so `pixels` is the
///   repainted screen: the graphics in creation order over the background.
/// - ECH erases the pixels of its cells in every graphic; ED 2 those of
///   every cell, leaving the graphics in their slots.
/// - LF on the last row scrolls the screen and the graphics up; a graphic
///   scrolled wholly off the top is deleted (its slot freed).
///
/// After an image the cursor's place is unknown (terminals differ): a CUP
/// must come before anything that needs it.
struct SixelDecoder {
    /// One sixel image received.
    struct Image {
        var row: Int, column: Int
        var width = 0, height = 0
        /// Register → colour defined in this image.
        var definitions: [Int: UInt32] = [:]
        /// Redundant `$` (before `-`, another `$` or the end).
        var redundantReturns = 0
    }

    /// One graphic xterm keeps: an image's pixels (0 where it drew none).
    struct Graphic {
        var id: Int, row: Int, column: Int, width: Int, height: Int
        var keys: [UInt32]
    }

    let columns: Int, rows: Int, cellWidth: Int, cellHeight: Int
    var pixels: [UInt32]
    var row = 1, column = 1
    var cursorKnown = false
    var attributesDefault = true
    var errors: [String] = []
    var images: [Image] = []
    /// xterm's graphic slots (`MAX_GRAPHICS` in graphics.c).
    var slots: [Graphic?]
    var nextGraphicID = 0
    /// Graphics dropped to make room for newer ones.
    var dropped = 0

    init(columns: Int, rows: Int, cellWidth: Int = 10, cellHeight: Int = 20, maxGraphics: Int = 16) {
        self.columns = columns
        self.rows = rows
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        pixels = [UInt32](repeating: 0, count: columns * cellWidth * rows * cellHeight)
        slots = [Graphic?](repeating: nil, count: maxGraphics)
    }

    /// The images that define a colour (not the blank guards).
    var pictures: [Image] { images.filter { !$0.definitions.isEmpty } }

    /// The graphics shown, oldest first.
    var graphics: [Graphic] { slots.compactMap { $0 }.sorted { $0.id < $1.id } }

    /// Repaints `pixels` from the graphics, as xterm does on an expose.
    mutating func repaint() {
        for i in pixels.indices { pixels[i] = 0 }
        for g in graphics {
            let x0 = (g.column - 1) * cellWidth
            let y0 = (g.row - 1) * cellHeight
            for y in 0..<g.height where y0 + y < rows * cellHeight {
                for x in 0..<g.width where x0 + x < width {
                    let key = g.keys[y * g.width + x]
                    if key != 0 { pixels[(y0 + y) * width + x0 + x] = key }
                }
            }
        }
    }

    /// The slot a new graphic takes (xterm's `get_new_graphic`): the first
    /// free one, else the one with the smallest row, the first of those.
    mutating func takeSlot() -> Int {
        if let free = slots.firstIndex(where: { $0 == nil }) { return free }
        var victim = 0
        for (i, g) in slots.enumerated() where g!.row < slots[victim]!.row { victim = i }
        slots[victim] = nil
        dropped += 1
        return victim
    }

    var width: Int { columns * cellWidth }

    /// The pixels of the `w` × `h` area whose top-left is cell (row, column), 1-based.
    func region(row: Int, column: Int, width w: Int, height h: Int) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(w * h)
        let x0 = (column - 1) * cellWidth
        let y0 = (row - 1) * cellHeight
        for y in y0..<(y0 + h) { out += pixels[(y * width + x0)..<(y * width + x0 + w)] }
        return out
    }

    mutating func feed(_ bytes: [UInt8]) {
        for (offset, piece) in EscapeScanner(bytes) {
            switch piece {
            case .csi(let params, let final): control(params, final)
            case .string(UInt8(ascii: "P"), let body): dcs(body)
            case .text(let text) where text.allSatisfy({ $0 == 0x0A }):
                for _ in text { lineFeed() }
            default:
                errors.append("unexpected \(piece) at \(offset)")
                return
            }
        }
    }

    /// LF: down a row, or on the last one the screen scrolls up: the
    /// graphics move up with it, and one scrolled wholly off the top is
    /// deleted (its slot freed).
    private mutating func lineFeed() {
        guard cursorKnown else {
            errors.append("LF with the cursor unknown")
            return
        }
        guard row == rows else {
            row += 1
            return
        }
        pixels.removeFirst(cellHeight * width)
        pixels += [UInt32](repeating: 0, count: cellHeight * width)
        for k in slots.indices {
            guard var g = slots[k] else { continue }
            g.row -= 1
            slots[k] = g.row + (g.height + cellHeight - 1) / cellHeight - 1 < 1 ? nil : g
        }
    }

    private mutating func control(_ params: String, _ final: UInt8) {
        let p = EscapeScanner.numbers(params)
        switch final {
        case UInt8(ascii: "H"):
            (row, column) = EscapeScanner.cursor(params)
            cursorKnown = true
            if row > rows || column > columns { errors.append("CUP outside the screen: \(row);\(column)") }
        case UInt8(ascii: "m"):
            if params == "0" || params.isEmpty { attributesDefault = true } else { errors.append("SGR \(params)") }
        case UInt8(ascii: "J") where params == "2":
            // ED 2: every cell, and every graphic's pixels, erased; the slots stay.
            for r in 1...rows {
                for c in 1...columns { clearCell(row: r, column: c) }
            }
        case UInt8(ascii: "X"):
            guard cursorKnown else {
                errors.append("ECH with the cursor unknown")
                return
            }
            if !attributesDefault { errors.append("ECH with attributes set") }
            let n = max(p.first ?? 1, 1)
            if column + n - 1 > columns { errors.append("ECH past the right edge") }
            for c in column..<min(column + n, columns + 1) { clearCell(row: row, column: c) }
        default: errors.append("unknown CSI \(params)\(Character(UnicodeScalar(final)))")
        }
    }

    private mutating func clearCell(row: Int, column: Int) {
        for y in ((row - 1) * cellHeight)..<(row * cellHeight) {
            for x in ((column - 1) * cellWidth)..<(column * cellWidth) { pixels[y * width + x] = 0 }
        }
        for k in slots.indices {
            guard var g = slots[k] else { continue }
            let x0 = (column - 1) * cellWidth - (g.column - 1) * cellWidth
            let y0 = (row - 1) * cellHeight - (g.row - 1) * cellHeight
            for y in max(y0, 0)..<max(min(y0 + cellHeight, g.height), max(y0, 0)) {
                for x in max(x0, 0)..<max(min(x0 + cellWidth, g.width), max(x0, 0)) { g.keys[y * g.width + x] = 0 }
            }
            slots[k] = g
        }
    }

    private mutating func dcs(_ body: [UInt8]) {
        let tmux = Array("tmux;".utf8)
        if body.starts(with: tmux) {
            var inner: [UInt8] = []
            var k = tmux.count
            while k < body.count {
                if body[k] == 0x1B {
                    guard k + 1 < body.count, body[k + 1] == 0x1B else {
                        errors.append("undoubled ESC in tmux passthrough")
                        return
                    }
                    k += 1
                }
                inner.append(body[k])
                k += 1
            }
            feed(inner)
            return
        }
        guard let q = body.firstIndex(of: UInt8(ascii: "q")) else {
            errors.append("DCS that is not sixel")
            return
        }
        let params = String(decoding: body[..<q], as: UTF8.self).split(separator: ";").map { Int($0) ?? 0 }
        if params.count < 2 || params[1] != 1 { errors.append("P2 is not 1: \(params)") }
        guard cursorKnown else {
            errors.append("sixel with the cursor unknown")
            return
        }
        sixel(Array(body[(q + 1)...]))
        cursorKnown = false
    }
}
