/// A box of cells on the screen: its top-left cell (1-based) and size.
public struct CellRegion: Sendable, Equatable {
    /// The top row, 1-based.
    public var row: Int
    /// The left column, 1-based.
    public var column: Int
    /// Its width in cells.
    public var columns: Int
    /// Its height in cells.
    public var rows: Int

    /// A box of `columns`×`rows` cells whose top-left cell is (`row`, `column`).
    public init(row: Int, column: Int, columns: Int, rows: Int) {
        self.row = row
        self.column = column
        self.columns = columns
        self.rows = rows
    }
}
