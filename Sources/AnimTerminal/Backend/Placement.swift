import AnimKit

/// Where the picture goes on screen and at what size its frames are made.
public struct Placement: Equatable, Sendable {
    /// The top-left cell, 1-based.
    public var row: Int
    /// The top-left cell's column, 1-based.
    public var column: Int
    /// The cells the picture covers (the last row or column may be partly covered).
    public var columns: Int
    /// The cell rows the picture covers (the last may be partly covered).
    public var rows: Int
    /// The size frames are delivered at: sub-pixels for text cells, the
    /// terminal's pixels for graphics.
    public var pixels: PixelSize
    /// The terminal's cell size the placement was made for.
    public var cell: CellGeometry
    /// Cell rows right above the picture that the player keeps blank (a
    /// centred picture's margin in its box): a backend may start an image
    /// there whose pixels in those rows are transparent.
    public var blankRowsAbove: Int

    /// A placement as given, nothing checked; `fit` makes one for an
    /// animation and a box.
    public init(
        row: Int, column: Int, columns: Int, rows: Int, pixels: PixelSize, cell: CellGeometry = .assumed,
        blankRowsAbove: Int = 0
    ) {
        self.row = row
        self.column = column
        self.columns = columns
        self.rows = rows
        self.pixels = pixels
        self.cell = cell
        self.blankRowsAbove = blankRowsAbove
    }

    /// Fits a `source`-sized animation into `box`, keeping its aspect ratio
    /// on screen for cells of `cell` pixels, at the backend's `resolution`.
    ///
    /// Sub-pixels of text cells are not square (a half block of an 8×19
    /// cell is 8×9.5 pixels), so the frame is resampled to a size whose
    /// aspect differs from the source's: what is kept is the shape seen.
    /// Without `upscale` a frame never gets more pixels than the source has
    /// along either axis; with it, it fills the box. `centered` puts the
    /// picture in the middle of the box (the rows above it in the box are
    /// `blankRowsAbove`), else at its top-left.
    public static func fit(
        source: PixelSize, box: CellBox, cell: CellGeometry, resolution: BackendResolution,
        upscale: Bool, centered: Bool, origin: (row: Int, column: Int) = (1, 1)
    ) -> Placement {
        let (sx, sy): (Int, Int)
        switch resolution {
        case .cells(let across, let down): (sx, sy) = (max(across, 1), max(down, 1))
        case .pixels: (sx, sy) = (cell.width, cell.height)
        }
        // Size of one delivered pixel in terminal pixels.
        let pw = Double(cell.width) / Double(sx)
        let ph = Double(cell.height) / Double(sy)
        let w = Double(max(source.width, 1))
        let h = Double(max(source.height, 1))
        let boxW = Double(box.columns * cell.width)
        let boxH = Double(box.rows * cell.height)
        var scale = min(boxW / w, boxH / h)  // terminal pixels per source pixel
        if !upscale { scale = min(scale, pw, ph) }
        let (gw, gh) = wholeSubpixels(w * scale / pw, h * scale / ph, maxWidth: box.columns * sx, maxHeight: box.rows * sy)
        let columns = (gw + sx - 1) / sx
        let rows = (gh + sy - 1) / sy
        let margin = centered ? max((box.rows - rows) / 2, 0) : 0
        let column = origin.column + (centered ? (box.columns - columns) / 2 : 0)
        return Placement(
            row: origin.row + margin, column: column, columns: columns, rows: rows,
            pixels: PixelSize(width: gw, height: gh), cell: cell, blankRowsAbove: margin)
    }

    /// Whole sub-pixel counts for an exact `fw`×`fh`: the shorter side is
    /// rounded and the longer one derived from it, so the rounding that
    /// matters (a narrow picture a few columns wide) does not bend the
    /// shape; both stay within the maxima.
    static func wholeSubpixels(_ fw: Double, _ fh: Double, maxWidth: Int, maxHeight: Int) -> (Int, Int) {
        let ratio = fh / fw
        func clamp(_ v: Double, _ m: Int) -> Int { min(max(Int(v.rounded()), 1), m) }
        func fit(_ s: Double, _ maxS: Int, _ maxL: Int, toLong: (Double) -> Double, toShort: (Double) -> Double) -> (Int, Int) {
            var short = clamp(s, maxS)
            var long = clamp(toLong(Double(short)), maxL)
            if Double(long) < toLong(Double(short)).rounded() {
                // The long side hit the box: the short one shrinks to fit it.
                short = max(Int(toShort(Double(long))), 1)
                long = clamp(toLong(Double(short)), maxL)
            }
            return (short, long)
        }
        if fw <= fh { return fit(fw, maxWidth, maxHeight, toLong: { $0 * ratio }, toShort: { $0 / ratio }) }
        let (gh, gw) = fit(fh, maxHeight, maxWidth, toLong: { $0 / ratio }, toShort: { $0 * ratio })
        return (gw, gh)
    }
}
