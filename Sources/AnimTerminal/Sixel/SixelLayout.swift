import AnimKit

/// Where the sixel backend's rectangles may start (a cell's top-left
/// corner: an image is drawn from the cursor's cell) and how large one
/// image may be: within `maxSize` (XTSMGRAPHICS) as tiles of whole cells,
/// the picture cropped to it when not even one cell fits.
struct SixelLayout: Equatable {
    /// Pixels per cell, as the placement needs them.
    let cell: CellGeometry
    /// The part of the frame that is drawn (all of it unless cropped).
    let visible: PixelSize
    /// The largest image sent, whole cells unless cropped.
    let tile: PixelSize

    /// `cell` is trusted when the placement's pixels need exactly its
    /// cells; otherwise the cell size is estimated from the placement.
    init(placement: Placement, frame: PixelSize, cell: CellGeometry, maxSize: PixelSize?) {
        let columns = max(placement.columns, 1)
        let rows = max(placement.rows, 1)
        let w = max(frame.width, 1)
        let h = max(frame.height, 1)
        let cellWidth = (w + cell.width - 1) / cell.width == columns ? cell.width : (w + columns - 1) / columns
        let cellHeight = (h + cell.height - 1) / cell.height == rows ? cell.height : (h + rows - 1) / rows
        self.cell = CellGeometry(width: cellWidth, height: cellHeight)
        let maxW = max(maxSize?.width ?? .max, 1)
        let maxH = max(maxSize?.height ?? .max, 1)
        visible = PixelSize(
            width: maxW >= cellWidth ? frame.width : min(frame.width, maxW),
            height: maxH >= cellHeight ? frame.height : min(frame.height, maxH))
        tile = PixelSize(
            width: maxW >= cellWidth ? maxW / cellWidth * cellWidth : maxW,
            height: maxH >= cellHeight ? maxH / cellHeight * cellHeight : maxH)
    }

    /// `rect` aligned to cells within the visible part (`CellGeometry.aligned`).
    func aligned(_ rect: Rect, wholeCells: Bool) -> Rect {
        cell.aligned(rect, wholeCells: wholeCells, within: visible)
    }

    /// The cells `rect` touches, as (first row, first column, rows, columns), 0-based.
    func cells(of rect: Rect) -> (row: Int, column: Int, rows: Int, columns: Int) {
        let c0 = rect.x / cell.width
        let r0 = rect.y / cell.height
        let c1 = (rect.x + rect.width + cell.width - 1) / cell.width
        let r1 = (rect.y + rect.height + cell.height - 1) / cell.height
        return (r0, c0, r1 - r0, c1 - c0)
    }

    /// `rect` cut into images no larger than `tile`, each starting at a cell corner.
    func tiles(of rect: Rect) -> [Rect] {
        var out: [Rect] = []
        var y = rect.y
        while y < rect.y + rect.height {
            let h = min(tile.height, rect.y + rect.height - y)
            var x = rect.x
            while x < rect.x + rect.width {
                let w = min(tile.width, rect.x + rect.width - x)
                out.append(Rect(x: x, y: y, width: w, height: h))
                x += w
            }
            y += h
        }
        return out
    }
}
