import AnimKit

/// Previews: the picture drawn into a box of the screen as it is (fzf, lf,
/// ranger, yazi and nnn call a previewer so), no alternate screen, no keys.
extension Player {
    func runInline(_ place: InlinePlacement) throws {
        let pane = panes[0]
        var prelude: [UInt8] = []
        if place.lines {
            // A pipe: the reader's cursor starts at the box's corner.
            pane.backend.cursorWasMoved(row: pane.layout.placement.row, column: pane.layout.placement.column)
        } else {
            if place.keepCursor {
                prelude += Escape.saveCursor
                // A box of its own (`--place`): blank first, so nothing of
                // the last preview stays (sixel cannot be deleted, only erased).
                prelude += Escape.resetAttributes
                prelude += Escape.eraseCells(
                    row: place.row, column: place.column, rows: pane.layout.box.rows + (pane.layout.title == nil ? 0 : 1),
                    columns: pane.layout.box.columns)
            }
            prelude += Escape.hideCursor
            // Too low for the picture: line feeds on the last row make room.
            if !place.keepCursor, let size = Terminal.size(fd: options.output) {
                let excess = pane.layout.placement.row + pane.layout.placement.rows - 1 - size.rows
                if excess > 0 {
                    prelude += Escape.moveTo(row: size.rows, column: 1) + [UInt8](repeating: 0x0A, count: excess)
                    pane.layout.placement.row -= excess
                }
            }
        }
        if !prelude.isEmpty, !writer.write(prelude) {
            _ = end(.outputClosed)
            return
        }
        defer { finishInline(place, pane.layout.placement) }
        try play(keys: nil)
    }

    /// What the screen keeps: the picture, or a blank box (`clear`); the
    /// cursor back where it was, or on the line below the picture.
    private func finishInline(_ place: InlinePlacement, _ placement: Placement) {
        var out = place.clear ? panes[0].backend.finish() : []
        out += Escape.resetAttributes
        if place.clear && !place.lines {
            out += Escape.eraseCells(
                row: placement.row, column: placement.column, rows: placement.rows, columns: placement.columns)
        }
        if place.lines {
            out += [0x0D, 0x0A]
        } else if place.keepCursor {
            out += Escape.restoreCursor
        } else {
            out += Escape.moveTo(row: placement.row + placement.rows - 1, column: 1) + [0x0D, 0x0A]
        }
        if !place.lines { out += Escape.showCursor }
        _ = writer.write(out)
    }
}
