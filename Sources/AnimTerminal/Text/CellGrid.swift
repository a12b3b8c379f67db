import AnimKit

/// A grid of text cells, each a glyph pattern of `symbols` and two colours.
public struct CellGrid: Equatable, Sendable {
    /// Cells across and down.
    public let columns: Int
    /// Cells down.
    public let rows: Int
    /// The symbols the masks refer to.
    public let symbols: TextSymbols
    /// Row-major, each in `symbols.canonical` form (as the subscript stores them).
    public var cells: [Cell]

    /// A grid of `fill` cells (by default the terminal's background).
    public init(columns: Int, rows: Int, symbols: TextSymbols = .half, fill: Cell = .solid(.terminalDefault)) {
        self.columns = columns
        self.rows = rows
        self.symbols = symbols
        cells = [Cell](repeating: symbols.canonical(fill), count: columns * rows)
    }

    /// The cell at 0-based (`column`, `row`); set in any form, stored canonical.
    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = symbols.canonical(newValue) }
    }

    /// The half-block cells showing `image`, colours as `mode` shows them.
    public init(image: RGBAImage, background: Background, mode: ColorMode) {
        self.init(image: image, background: background, symbols: .half, mode: mode, dither: .none)
    }
}
