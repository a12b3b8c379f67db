import AnimKit

/// Where a pane is drawn, and what of its frame's surroundings (title,
/// status line) is on screen.
struct PaneLayout {
    /// The grid's pane to fit and centre the picture into; nil: the window.
    var region: CellRegion?
    /// The cell box the picture is fitted into (without the status line).
    var box = CellBox(columns: 80, rows: 24)
    var placement = Placement(row: 1, column: 1, columns: 1, rows: 1, pixels: PixelSize(width: 1, height: 1))
    /// The status line's row (below the box).
    var statusRow = 25
    /// Whether the title is on screen since the last layout.
    var titleDrawn = false
    /// The line above the picture (`PlayerOptions.title`); nil: none.
    var title: String?
    /// The status line's text as last written.
    var lastStatus = ""
}
