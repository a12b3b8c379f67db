/// Where a preview goes: the box's top-left cell, and what is left when
/// the play ends.
public struct InlinePlacement: Sendable, Equatable {
    /// The box's top row, 1-based.
    public var row: Int
    /// The box's left column, 1-based.
    public var column: Int
    /// At the end, make the box blank again (kitty's images deleted).
    public var clear: Bool
    /// At the end, put the cursor back where it was (a pane not ours);
    /// otherwise it goes to the line below the picture.
    public var keepCursor: Bool
    /// Output is not a terminal (fzf reads the preview from a pipe): lines
    /// from the box's top-left, no absolute positions.
    public var lines: Bool

    /// A box at (`row`, `column`).
    public init(row: Int, column: Int, clear: Bool = false, keepCursor: Bool = false, lines: Bool = false) {
        self.row = row
        self.column = column
        self.clear = clear
        self.keepCursor = keepCursor
        self.lines = lines
    }
}
