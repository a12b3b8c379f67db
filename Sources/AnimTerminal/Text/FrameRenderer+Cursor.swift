extension FrameRenderer {
    /// Moves the cursor by the shortest bytes: on the same row, redrawing
    /// the unchanged cells between when shorter and needing no colour; else
    /// the shortest of an absolute position, a relative move and line feeds.
    func move(
        _ out: inout ByteBuffer, to target: (row: Int, column: Int), grid: CellGrid, gridRow: Int,
        displayed: inout CellGrid
    ) {
        guard let row = cursorRow else {
            absolute(&out, target)
            return
        }
        let absoluteCost = 3 + digits(target.row) + (target.column == 1 ? 0 : 1 + digits(target.column))
        // Line feeds (within the grid: no scroll), then CR or an absolute
        // column (a line feed may not return): also from an unknown column.
        let dr = target.row - row
        let feeds = dr < 1 || dr > 3 ? Int.max : dr + (target.column == 1 ? 1 : 3 + digits(target.column))
        var relative = Int.max  // none from an unknown column
        var dc = 0
        if let column = cursorColumn {
            if (row, column) == target { return }
            if row == target.row, target.column > column {
                let gap = target.column - column
                if gap > 3
                    || !redrawGap(
                        &out, from: column, to: target.column, jump: 3 + (gap == 1 ? 0 : digits(gap)),
                        grid: grid, gridRow: gridRow, displayed: &displayed)
                {
                    csi(&out, gap, "C")
                }
                return
            }
            // Relative: vertical, then horizontal (carriage return to column 1).
            dc = target.column - column
            relative = 0
            if dr != 0 { relative += 3 + (abs(dr) == 1 ? 0 : digits(abs(dr))) }
            if dc != 0 { relative += target.column == 1 ? 1 : 3 + (abs(dc) == 1 ? 0 : digits(abs(dc))) }
        }
        if feeds < min(relative, absoluteCost) {
            if target.column == 1 { out.append(0x0D) }
            for _ in 0..<dr { out.append(0x0A) }
            if target.column != 1 { csi(&out, target.column, "G") }
            return
        }
        guard relative < absoluteCost else {
            absolute(&out, target)
            return
        }
        if dr != 0 { csi(&out, abs(dr), dr > 0 ? "B" : "A") }
        if dc != 0 {
            if target.column == 1 { out.append(0x0D) } else { csi(&out, abs(dc), dc > 0 ? "C" : "D") }
        }
    }

    /// Redraws the unchanged cells in screen columns `from..<to` when each
    /// needs no colour and all take fewer bytes than `jump`; else false.
    private func redrawGap(
        _ out: inout ByteBuffer, from: Int, to: Int, jump: Int, grid: CellGrid, gridRow: Int,
        displayed: inout CellGrid
    ) -> Bool {
        var bytes = 0
        for col in from..<to {
            guard let g = glyphWithoutColours(grid[col - origin.column, gridRow]) else { return false }
            bytes += g.bytes.count
        }
        guard bytes < jump else { return false }
        for col in from..<to {
            let g = glyphWithoutColours(grid[col - origin.column, gridRow])!
            out.append(g.bytes)
            displayed[col - origin.column, gridRow] = g.shows
        }
        return true
    }

    func absolute(_ out: inout ByteBuffer, _ target: (row: Int, column: Int)) {
        out.append("\u{1B}[")
        out.append(number: target.row)
        if target.column != 1 {
            out.append(";")
            out.append(number: target.column)
        }
        out.append("H")
    }

    /// ESC [ n final, with n left out when it is 1.
    func csi(_ out: inout ByteBuffer, _ n: Int, _ final: StaticString) {
        out.append("\u{1B}[")
        if n != 1 { out.append(number: n) }
        out.append(final)
    }

    func digits(_ n: Int) -> Int { n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : String(n).count }
}
