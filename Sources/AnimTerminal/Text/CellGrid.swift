import AnimKit

/// What a terminal cell shows: the colours of its top and bottom pixel.
public struct Cell: Equatable, Hashable, Sendable {
    public var top: TerminalColor
    public var bottom: TerminalColor

    public init(top: TerminalColor, bottom: TerminalColor) {
        self.top = top; self.bottom = bottom
    }
}

/// A grid of half-block cells: two image rows per terminal row.
public struct CellGrid: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    public var cells: [Cell]

    public init(columns: Int, rows: Int, fill: Cell = Cell(top: .terminalDefault, bottom: .terminalDefault)) {
        self.columns = columns; self.rows = rows
        cells = [Cell](repeating: fill, count: columns * rows)
    }

    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// The cells showing `image` (one pixel per column, two per row; an odd
    /// last row's bottom half is the background), colours as `mode` shows them.
    public init(image: RGBAImage, background: Background, mode: ColorMode) {
        self.init(columns: image.width, rows: (image.height + 1) / 2)
        image.pixels.withUnsafeBufferPointer { px in
            for row in 0..<rows {
                for x in 0..<columns {
                    let top = Self.color(px, image, x, row * 2, background, mode)
                    let bottom = row * 2 + 1 < image.height
                        ? Self.color(px, image, x, row * 2 + 1, background, mode)
                        : background.compose(0, 0, 0, 0, x: x, y: row * 2 + 1)
                    cells[row * columns + x] = Cell(top: top, bottom: XtermPalette.shown(bottom, mode: mode))
                }
            }
        }
    }

    @inline(__always)
    private static func color(_ px: UnsafeBufferPointer<UInt8>, _ image: RGBAImage, _ x: Int, _ y: Int,
                              _ background: Background, _ mode: ColorMode) -> TerminalColor {
        let i = (y * image.width + x) * 4
        return XtermPalette.shown(background.compose(px[i], px[i + 1], px[i + 2], px[i + 3], x: x, y: y), mode: mode)
    }
}
