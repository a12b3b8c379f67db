/// A box of cells on the screen: its top-left cell (1-based) and size.
struct CellRegion: Sendable, Equatable {
    /// The top row, 1-based.
    var row: Int
    /// The left column, 1-based.
    var column: Int
    /// Its width in cells.
    var columns: Int
    /// Its height in cells.
    var rows: Int
}
