/// Turns successive cell grids into terminal output, sending only what
/// changed. Per changed cell it draws the pattern or its inverse (colours swapped),
/// whichever reuses the colours set; the cursor jumps over unchanged runs;
/// a colour is sent only when it differs from the one set. A one-colour
/// cell is always a space on that background (a font's full block may not
/// cover the cell). With a `tolerance`, a colour set or shown within that
/// many levels on every channel stands for the one wanted (0: exact),
/// which makes gradients and video far cheaper; a cell wanted in one
/// colour is drawn again if it shows two, however near.
public final class FrameRenderer {
    /// How colours are sent (the grids' colours should already be as `mode`
    /// shows them).
    public let mode: ColorMode
    /// Levels per channel a colour shown may differ from the frame's.
    public let tolerance: Int
    /// The grid the terminal shows as sent (within `tolerance` of the last
    /// frame), nil when unknown.
    public private(set) var shown: CellGrid?
    var origin = (row: 1, column: 1)
    var fg: TerminalColor?
    var bg: TerminalColor?
    /// Where the cursor is, when known (the column not after writing the
    /// grid's last column: a pending wrap).
    var cursorRow: Int?
    var cursorColumn: Int?
    var symbols = TextSymbols.half {
        didSet { fullMask = symbols.fullMask }
    }
    /// `symbols.fullMask`, looked at for every cell.
    private var fullMask = TextSymbols.half.fullMask

    /// A renderer that knows nothing of the screen yet: the first frame is
    /// drawn whole.
    public init(mode: ColorMode, tolerance: Int = 0) {
        self.mode = mode
        self.tolerance = max(tolerance, 0)
    }

    /// True when colour `a` (set or shown) may stand for `b`.
    @inline(__always)
    func near(_ a: TerminalColor?, _ b: TerminalColor) -> Bool {
        guard let a else { return false }
        if a == b { return true }
        guard tolerance > 0, case .rgb(let r1, let g1, let b1) = a, case .rgb(let r2, let g2, let b2) = b else { return false }
        return abs(Int(r1) - Int(r2)) <= tolerance && abs(Int(g1) - Int(g2)) <= tolerance
            && abs(Int(b1) - Int(b2)) <= tolerance
    }

    /// True when cell `a` (shown) may stand for `b`: every sub-pixel's
    /// colour is near, and if `b` is one colour, so is `a`.
    @inline(__always)
    func near(_ a: Cell, _ b: Cell) -> Bool {
        if a == b { return true }
        let full = fullMask
        let am = a.mask & full
        let bm = b.mask & full
        let an = ~a.mask & full
        let bn = ~b.mask & full
        if an & bn != 0 && !near(a.bg, b.bg) { return false }
        if an & bm != 0 && !near(a.bg, b.fg) { return false }
        if am & bn != 0 && !near(a.fg, b.bg) { return false }
        if am & bm != 0 && !near(a.fg, b.fg) { return false }
        return !isSolid(b) || isSolid(a)
    }

    @inline(__always)
    func isSolid(_ c: Cell) -> Bool {
        let m = c.mask & fullMask
        return m == 0 || m == fullMask || c.fg == c.bg
    }

    /// `cursorWasMoved` since the last render: it holds through a full redraw.
    private var cursorTold = false

    /// Forgets what the terminal shows: the next frame is drawn whole.
    public func invalidate() {
        shown = nil
        fg = nil
        bg = nil
        cursorRow = nil
        cursorColumn = nil
    }

    /// Something else moved the cursor to 1-based (`row`, `column`).
    public func cursorWasMoved(row: Int, column: Int) {
        cursorRow = row
        cursorColumn = column
        cursorTold = true
    }

    /// Something else wrote and reset the colours (a status line): colours
    /// and cursor are sent again as needed.
    public func colorsWereReset() {
        fg = .terminalDefault
        bg = .terminalDefault
        cursorRow = nil
        cursorColumn = nil
    }

    /// The bytes that bring the terminal from what it shows to `grid`,
    /// placed with its top-left cell at 1-based (`row`, `column`).
    public func render(_ grid: CellGrid, row: Int = 1, column: Int = 1) -> [UInt8] {
        var out = ByteBuffer(capacity: 64 + grid.cells.count * 4)
        let full =
            shown == nil || shown!.columns != grid.columns || shown!.rows != grid.rows
            || shown!.symbols != grid.symbols || origin != (row, column)
        if full {
            out.append("\u{1B}[0m")
            fg = .terminalDefault
            bg = .terminalDefault
            // Unless the player just said where the cursor is (a pipe).
            if !cursorTold {
                cursorRow = nil
                cursorColumn = nil
            }
        }
        cursorTold = false
        origin = (row, column)
        symbols = grid.symbols
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

    /// A two-colour cell drawn with sub-pixel 0 in the foreground.
    @inline(__always)
    func orientations(_ cell: Cell) -> (mask: UInt8, first: TerminalColor, second: TerminalColor) {
        let m = cell.mask & fullMask
        return m & 1 != 0 ? (m, cell.fg, cell.bg) : (~m & fullMask, cell.bg, cell.fg)
    }

    /// The glyph showing `cell` with the colours set now, and what it then
    /// shows, or nil if it needs a colour change.
    func glyphWithoutColours(_ cell: Cell) -> (bytes: [UInt8], shows: Cell)? {
        guard let fg, let bg else { return nil }
        if isSolid(cell) {
            return near(bg, cell.color(at: 0)) ? (symbols.glyph(0), .solid(bg)) : nil
        }
        guard fg != .terminalDefault else { return nil }
        let (m, f, b) = orientations(cell)
        if near(fg, f) && near(bg, b) { return (symbols.glyph(m), symbols.canonical(Cell(mask: m, fg: fg, bg: bg))) }
        let inverse = ~m & fullMask
        if near(fg, b) && near(bg, f) { return (symbols.glyph(inverse), symbols.canonical(Cell(mask: inverse, fg: fg, bg: bg))) }
        return nil
    }

    /// Draws one cell with the glyph that needs the fewest colour changes
    /// (and then the `next` cell); returns what the cell shows.
    func draw(_ out: inout ByteBuffer, _ cell: Cell, next: Cell?) -> Cell {
        if let (bytes, shows) = glyphWithoutColours(cell) {
            out.append(bytes)
            return shows
        }
        if isSolid(cell) {
            // One new colour: a space on it.
            setColors(&out, foreground: nil, background: cell.color(at: 0))
            out.append(0x20)
            return .solid(bg!)
        }
        // The pattern or its inverse. The default colour can only be a background.
        func cost(_ f: TerminalColor, _ b: TerminalColor) -> Int {
            guard f != .terminalDefault else { return 1000 }
            var n = (near(fg, f) ? 0 : 1) + (near(bg, b) ? 0 : 1)
            if let next {
                let nf = near(fg, f) ? fg! : f
                let nb = near(bg, b) ? bg! : b
                n += changes(next, fg: nf, bg: nb)
            }
            return n
        }
        let (m, f, b) = orientations(cell)
        let mask = cost(f, b) <= cost(b, f) ? m : ~m & fullMask
        if mask == m { setColors(&out, foreground: f, background: b) } else { setColors(&out, foreground: b, background: f) }
        out.append(symbols.glyph(mask))
        return symbols.canonical(Cell(mask: mask, fg: fg!, bg: bg!))
    }

    /// Colour changes `cell` needs with `fg` and `bg` set.
    func changes(_ cell: Cell, fg: TerminalColor, bg: TerminalColor) -> Int {
        if isSolid(cell) { return near(bg, cell.color(at: 0)) ? 0 : 1 }
        func c(_ f: TerminalColor, _ b: TerminalColor) -> Int {
            f == .terminalDefault ? 1000 : (near(fg, f) ? 0 : 1) + (near(bg, b) ? 0 : 1)
        }
        return min(c(cell.fg, cell.bg), c(cell.bg, cell.fg))
    }

    /// Sets the colours that the ones set cannot stand for, in one SGR sequence.
    func setColors(_ out: inout ByteBuffer, foreground f: TerminalColor?, background b: TerminalColor?) {
        let newFg = f.flatMap { near(fg, $0) ? nil : $0 }
        let newBg = b.flatMap { near(bg, $0) ? nil : $0 }
        guard newFg != nil || newBg != nil else { return }
        out.append("\u{1B}[")
        if let newFg {
            sgr(&out, newFg, foreground: true)
            fg = newFg
        }
        if newFg != nil && newBg != nil { out.append(";") }
        if let newBg {
            sgr(&out, newBg, foreground: false)
            bg = newBg
        }
        out.append("m")
    }

    private func sgr(_ out: inout ByteBuffer, _ c: TerminalColor, foreground: Bool) {
        switch c {
        case .terminalDefault:
            out.append(foreground ? "39" : "49")
        case .rgb(let r, let g, let b):
            out.append(foreground ? "38;" : "48;")
            if mode == .trueColor {
                out.append("2;")
                out.append(number: Int(r))
                out.append(";")
                out.append(number: Int(g))
                out.append(";")
                out.append(number: Int(b))
            } else {
                out.append("5;")
                out.append(number: Int(XtermPalette.index(r, g, b)))
            }
        }
    }
}
