/// Turns successive cell grids into terminal output, sending only what
/// changed since the last frame actually written.
///
/// Per changed cell it picks ▀, ▄, █ or a space so as to reuse the
/// foreground and background colours already set; the cursor jumps over
/// unchanged runs; a colour is sent only when it differs from the one set.
/// With a `tolerance`, a colour set (or a cell shown) within that many
/// levels on every channel of the one wanted stands for it: the terminal is
/// never further than that from the frame, and gradients and video cost far
/// fewer bytes. Tolerance 0 is exact.
/// Each frame is one byte buffer; the player wraps it (with the status
/// line) in one synchronized update.
public final class FrameRenderer {
    public let mode: ColorMode
    /// Levels per channel a colour shown may differ from the frame's.
    public let tolerance: Int
    /// The grid the terminal shows (after the last `render`), nil when
    /// unknown (first frame, after a resize or a resume): the colours
    /// actually sent, within `tolerance` of the last frame's.
    public private(set) var shown: CellGrid?
    private var origin = (row: 1, column: 1)
    private var fg: TerminalColor?
    private var bg: TerminalColor?
    /// Where the cursor is, when known; the column is unknown (nil) after
    /// writing in the grid's last column, which may be the terminal's last
    /// (pending wrap).
    private var cursorRow: Int?
    private var cursorColumn: Int?

    public init(mode: ColorMode, tolerance: Int = 0) {
        self.mode = mode
        self.tolerance = max(tolerance, 0)
    }

    /// True when colour `a` (set or shown) may stand for `b`.
    func near(_ a: TerminalColor?, _ b: TerminalColor) -> Bool {
        guard let a else { return false }
        if a == b { return true }
        guard tolerance > 0, case let .rgb(r1, g1, b1) = a, case let .rgb(r2, g2, b2) = b else { return false }
        return abs(Int(r1) - Int(r2)) <= tolerance && abs(Int(g1) - Int(g2)) <= tolerance
            && abs(Int(b1) - Int(b2)) <= tolerance
    }

    func near(_ a: Cell, _ b: Cell) -> Bool { near(a.top, b.top) && near(a.bottom, b.bottom) }

    /// Forgets what the terminal shows: the next frame is drawn whole.
    public func invalidate() {
        shown = nil
        fg = nil; bg = nil; cursorRow = nil; cursorColumn = nil
    }

    /// Says that something else wrote to the terminal and reset the colours
    /// (a status line): colours and cursor are sent again as needed.
    public func colorsWereReset() {
        fg = .terminalDefault; bg = .terminalDefault; cursorRow = nil; cursorColumn = nil
    }

    /// The bytes that bring the terminal from what it shows to `grid`,
    /// placed with its top-left cell at 1-based (`row`, `column`).
    public func render(_ grid: CellGrid, row: Int = 1, column: Int = 1) -> [UInt8] {
        var out = ByteBuffer(capacity: 64 + grid.cells.count * 4)
        let full = shown == nil || shown!.columns != grid.columns || shown!.rows != grid.rows
            || origin != (row, column)
        if full {
            out.append("\u{1B}[0m")
            fg = .terminalDefault; bg = .terminalDefault
            cursorRow = nil; cursorColumn = nil
        }
        origin = (row, column)
        var displayed = full ? grid : shown!
        for r in 0..<grid.rows {
            for c in 0..<grid.columns {
                let cell = grid[c, r]
                if !full && near(displayed[c, r], cell) { continue }
                move(&out, to: (row + r, column + c), grid: grid, gridRow: r, displayed: &displayed)
                let next = c + 1 < grid.columns && (full || !near(displayed[c + 1, r], grid[c + 1, r])) ? grid[c + 1, r] : nil
                displayed[c, r] = draw(&out, cell, next: next)
                cursorRow = row + r
                cursorColumn = c + 1 < grid.columns ? column + c + 1 : nil
            }
        }
        shown = displayed
        return out.bytes
    }

    /// Moves the cursor by the shortest sequence: nothing if it is there;
    /// on the same row, redrawing the unchanged cells in between when that
    /// is shorter than a jump and needs no colour; else the shorter of an
    /// absolute position, a relative move and line feeds.
    private func move(_ out: inout ByteBuffer, to target: (row: Int, column: Int), grid: CellGrid, gridRow: Int,
                      displayed: inout CellGrid) {
        guard let row = cursorRow else { absolute(&out, target); return }
        let absoluteCost = 3 + digits(target.row) + (target.column == 1 ? 0 : 1 + digits(target.column))
        guard let column = cursorColumn else {
            // Column unknown: line feeds (a row below, inside the grid, so
            // they never scroll), then CR or an absolute column (a line
            // feed may or may not return the carriage, by tty settings).
            let dr = target.row - row
            let feeds = dr < 1 || dr > 3 ? Int.max
                : dr + (target.column == 1 ? 1 : 3 + digits(target.column))
            guard feeds < absoluteCost else { absolute(&out, target); return }
            if target.column == 1 { out.append(0x0D) }
            for _ in 0..<dr { out.append(0x0A) }
            if target.column != 1 { out.append("\u{1B}["); out.append(number: target.column); out.append("G") }
            return
        }
        let cursor = (row: row, column: column)
        if cursor == target { return }
        if cursor.row == target.row, target.column > cursor.column {
            let gap = target.column - cursor.column
            let jump = 3 + (gap == 1 ? 0 : digits(gap))
            if gap <= 3 {
                var glyphs: [(bytes: [UInt8], shows: Cell)] = []
                var bytes = 0
                for col in cursor.column..<target.column {
                    guard let g = glyphWithoutColours(grid[col - origin.column, gridRow]) else { break }
                    glyphs.append(g)
                    bytes += g.bytes.count
                }
                if glyphs.count == gap, bytes < jump {
                    for (i, g) in glyphs.enumerated() {
                        out.append(g.bytes)
                        displayed[cursor.column - origin.column + i, gridRow] = g.shows
                    }
                    return
                }
            }
            csi(&out, gap, "C")
            return
        }
        // Relative: vertical, then horizontal (carriage return to column 1).
        var relative = 0
        let dr = target.row - cursor.row, dc = target.column - cursor.column
        if dr != 0 { relative += 3 + (abs(dr) == 1 ? 0 : digits(abs(dr))) }
        if dc != 0 { relative += target.column == 1 ? 1 : 3 + (abs(dc) == 1 ? 0 : digits(abs(dc))) }
        // Or line feeds down, then CR or an absolute column.
        let feeds = dr < 1 || dr > 3 ? Int.max : dr + (target.column == 1 ? 1 : 3 + digits(target.column))
        if feeds < min(relative, absoluteCost) {
            cursorColumn = nil
            move(&out, to: target, grid: grid, gridRow: gridRow, displayed: &displayed)
            return
        }
        guard relative < absoluteCost else { absolute(&out, target); return }
        if dr != 0 { csi(&out, abs(dr), dr > 0 ? "B" : "A") }
        if dc != 0 {
            if target.column == 1 { out.append(0x0D) } else { csi(&out, abs(dc), dc > 0 ? "C" : "D") }
        }
    }

    private func absolute(_ out: inout ByteBuffer, _ target: (row: Int, column: Int)) {
        out.append("\u{1B}[")
        out.append(number: target.row)
        if target.column != 1 {
            out.append(";")
            out.append(number: target.column)
        }
        out.append("H")
    }

    /// ESC [ n final, with n left out when it is 1.
    private func csi(_ out: inout ByteBuffer, _ n: Int, _ final: StaticString) {
        out.append("\u{1B}[")
        if n != 1 { out.append(number: n) }
        out.append(final)
    }

    private func digits(_ n: Int) -> Int { n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : String(n).count }

    /// The glyph showing `cell` with the colours set now, and what it then
    /// shows, or nil if it needs a colour change.
    private func glyphWithoutColours(_ cell: Cell) -> (bytes: [UInt8], shows: Cell)? {
        guard let fg, let bg else { return nil }
        if cell.top == cell.bottom {
            if near(bg, cell.top) { return ([0x20], Cell(top: bg, bottom: bg)) }
            if near(fg, cell.top) && fg != .terminalDefault { return (Self.full, Cell(top: fg, bottom: fg)) }
            return nil
        }
        if near(fg, cell.top) && near(bg, cell.bottom) && fg != .terminalDefault { return (Self.upper, Cell(top: fg, bottom: bg)) }
        if near(fg, cell.bottom) && near(bg, cell.top) && fg != .terminalDefault { return (Self.lower, Cell(top: bg, bottom: fg)) }
        return nil
    }

    /// Draws one cell with the glyph that needs the fewest colour changes,
    /// counting what the `next` cell to draw would then need; returns what
    /// the cell shows.
    private func draw(_ out: inout ByteBuffer, _ cell: Cell, next: Cell?) -> Cell {
        if let (bytes, shows) = glyphWithoutColours(cell) {
            out.append(bytes)
            return shows
        }
        let (top, bottom) = (cell.top, cell.bottom)
        if top == bottom {
            // One new colour: a space on it.
            setColors(&out, foreground: nil, background: top)
            out.append(0x20)
            return Cell(top: top, bottom: top)
        }
        // Two colours: ▀ (fg top, bg bottom) or ▄ (fg bottom, bg top). The
        // default colour can only be a background.
        func cost(_ f: TerminalColor, _ b: TerminalColor) -> Int {
            guard f != .terminalDefault else { return 1000 }
            var n = (near(fg, f) ? 0 : 1) + (near(bg, b) ? 0 : 1)
            if let next {
                let nf = near(fg, f) ? fg! : f, nb = near(bg, b) ? bg! : b
                n += changes(next, fg: nf, bg: nb)
            }
            return n
        }
        if cost(top, bottom) <= cost(bottom, top) {
            setColors(&out, foreground: top, background: bottom); out.append(Self.upper)
            return Cell(top: fg!, bottom: bg!)
        } else {
            setColors(&out, foreground: bottom, background: top); out.append(Self.lower)
            return Cell(top: bg!, bottom: fg!)
        }
    }

    /// Colour changes `cell` needs with `fg` and `bg` set.
    private func changes(_ cell: Cell, fg: TerminalColor, bg: TerminalColor) -> Int {
        if cell.top == cell.bottom { return near(bg, cell.top) || (near(fg, cell.top) && fg != .terminalDefault) ? 0 : 1 }
        func c(_ f: TerminalColor, _ b: TerminalColor) -> Int {
            f == .terminalDefault ? 1000 : (near(fg, f) ? 0 : 1) + (near(bg, b) ? 0 : 1)
        }
        return min(c(cell.top, cell.bottom), c(cell.bottom, cell.top))
    }

    /// Sets the colours that the ones set cannot stand for, in one SGR sequence.
    private func setColors(_ out: inout ByteBuffer, foreground f: TerminalColor?, background b: TerminalColor?) {
        let newFg = f.flatMap { near(fg, $0) ? nil : $0 }
        let newBg = b.flatMap { near(bg, $0) ? nil : $0 }
        guard newFg != nil || newBg != nil else { return }
        out.append("\u{1B}[")
        if let newFg { sgr(&out, newFg, foreground: true); fg = newFg }
        if newFg != nil && newBg != nil { out.append(";") }
        if let newBg { sgr(&out, newBg, foreground: false); bg = newBg }
        out.append("m")
    }

    private func sgr(_ out: inout ByteBuffer, _ c: TerminalColor, foreground: Bool) {
        switch c {
        case .terminalDefault:
            out.append(foreground ? "39" : "49")
        case let .rgb(r, g, b):
            out.append(foreground ? "38;" : "48;")
            if mode == .trueColor {
                out.append("2;"); out.append(number: Int(r)); out.append(";")
                out.append(number: Int(g)); out.append(";"); out.append(number: Int(b))
            } else {
                out.append("5;"); out.append(number: Int(XtermPalette.index(r, g, b)))
            }
        }
    }

    static let upper: [UInt8] = [0xE2, 0x96, 0x80]   // ▀
    static let lower: [UInt8] = [0xE2, 0x96, 0x84]   // ▄
    static let full: [UInt8] = [0xE2, 0x96, 0x88]    // █
}

/// A growable byte buffer for terminal output (no String building).
struct ByteBuffer {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }
    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }
    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A non-negative integer in decimal.
    mutating func append(number: Int) {
        if number < 10 {
            bytes.append(UInt8(48 + number))
        } else if number < 100 {
            bytes.append(UInt8(48 + number / 10)); bytes.append(UInt8(48 + number % 10))
        } else if number < 1000 {
            bytes.append(UInt8(48 + number / 100)); bytes.append(UInt8(48 + number / 10 % 10))
            bytes.append(UInt8(48 + number % 10))
        } else {
            bytes.append(contentsOf: String(number).utf8)
        }
    }
}
