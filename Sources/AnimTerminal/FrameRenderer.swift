/// Turns successive cell grids into terminal output, sending only what
/// changed since the last frame actually written.
///
/// Per changed cell it picks ▀, ▄, █ or a space so as to reuse the
/// foreground and background colours already set; the cursor jumps over
/// unchanged runs; a colour is sent only when it differs from the one set.
/// Each frame is one byte buffer, wrapped in synchronized-output markers
/// (DEC mode 2026) so terminals that know them show it at once.
public final class FrameRenderer {
    public let mode: ColorMode
    /// The grid the terminal shows (after the last `render`), nil when
    /// unknown (first frame, after a resize or a resume).
    public private(set) var shown: CellGrid?
    private var origin = (row: 1, column: 1)
    private var fg: TerminalColor?
    private var bg: TerminalColor?
    private var cursor: (row: Int, column: Int)?

    public init(mode: ColorMode) { self.mode = mode }

    /// Forgets what the terminal shows: the next frame is drawn whole.
    public func invalidate() {
        shown = nil
        fg = nil; bg = nil; cursor = nil
    }

    /// Says that something else wrote to the terminal and reset the colours
    /// (a status line): colours and cursor are sent again as needed.
    public func colorsWereReset() {
        fg = .terminalDefault; bg = .terminalDefault; cursor = nil
    }

    /// The bytes that bring the terminal from what it shows to `grid`,
    /// placed with its top-left cell at 1-based (`row`, `column`).
    public func render(_ grid: CellGrid, row: Int = 1, column: Int = 1) -> [UInt8] {
        var out = ByteBuffer(capacity: 64 + grid.cells.count * 4)
        out.append("\u{1B}[?2026h")
        let full = shown == nil || shown!.columns != grid.columns || shown!.rows != grid.rows
            || origin != (row, column)
        if full {
            out.append("\u{1B}[0m")
            fg = .terminalDefault; bg = .terminalDefault
            cursor = nil
        }
        origin = (row, column)
        for r in 0..<grid.rows {
            for c in 0..<grid.columns {
                let cell = grid[c, r]
                if !full, let old = shown?[c, r], old == cell { continue }
                move(&out, to: (row + r, column + c))
                draw(&out, cell)
                cursor = (row + r, column + c + 1)
            }
        }
        out.append("\u{1B}[?2026l")
        shown = grid
        return out.bytes
    }

    /// Moves the cursor: nothing if it is there, a forward jump within the
    /// row, else an absolute position.
    private func move(_ out: inout ByteBuffer, to target: (row: Int, column: Int)) {
        if let cursor, cursor == target { return }
        if let cursor, cursor.row == target.row, target.column > cursor.column {
            out.append("\u{1B}[")
            out.append(number: target.column - cursor.column)
            out.append("C")
        } else {
            out.append("\u{1B}[")
            out.append(number: target.row)
            out.append(";")
            out.append(number: target.column)
            out.append("H")
        }
    }

    /// Draws one cell with the glyph that needs the fewest colour changes.
    private func draw(_ out: inout ByteBuffer, _ cell: Cell) {
        let (top, bottom) = (cell.top, cell.bottom)
        if top == bottom {
            // One colour: █ in the foreground or a space in the background.
            if top != .terminalDefault && fg == top {
                out.append(Self.full)
            } else {
                setBackground(&out, top)
                out.append(0x20)
            }
            return
        }
        // Two colours. The default colour can only be a background.
        let upperCost = top == .terminalDefault ? Int.max : (fg == top ? 0 : 1) + (bg == bottom ? 0 : 1)
        let lowerCost = bottom == .terminalDefault ? Int.max : (fg == bottom ? 0 : 1) + (bg == top ? 0 : 1)
        if upperCost <= lowerCost {
            setForeground(&out, top); setBackground(&out, bottom); out.append(Self.upper)
        } else {
            setForeground(&out, bottom); setBackground(&out, top); out.append(Self.lower)
        }
    }

    private func setForeground(_ out: inout ByteBuffer, _ c: TerminalColor) {
        guard fg != c else { return }
        sgr(&out, c, foreground: true)
        fg = c
    }

    private func setBackground(_ out: inout ByteBuffer, _ c: TerminalColor) {
        guard bg != c else { return }
        sgr(&out, c, foreground: false)
        bg = c
    }

    private func sgr(_ out: inout ByteBuffer, _ c: TerminalColor, foreground: Bool) {
        out.append("\u{1B}[")
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
        out.append("m")
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
