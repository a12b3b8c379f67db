/// A box of cells on the screen: its top-left cell (1-based) and size.
struct CellRegion: Sendable, Equatable {
    var row: Int
    var column: Int
    var columns: Int
    var rows: Int
}
