import AnimKit
import Testing

@testable import AnimTerminal

/// The picture keeps its shape on screen whatever the cell size: the
/// aspect ratio drawn (sub-pixels times their size in terminal pixels) is
/// within 2% of the source's for every backend resolution.
struct PlacementTests {
    static let cells = [(8, 19), (8, 18), (10, 20), (6, 13), (9, 18), (7, 15), (12, 24), (8, 16)]
    static let sources = [(96, 64), (640, 360), (300, 300), (240, 320), (1280, 720), (500, 120), (64, 400)]
    static let resolutions: [BackendResolution] = [
        .cells(across: 1, down: 2), .cells(across: 2, down: 2),
        .cells(across: 2, down: 3), .cells(across: 2, down: 4), .pixels,
    ]

    /// The drawn aspect ratio over the source's, minus one.
    static func error(_ p: Placement, source: (Int, Int), resolution: BackendResolution) -> Double {
        let (sx, sy): (Double, Double)
        switch resolution {
        case .cells(let a, let d): (sx, sy) = (Double(p.cell.width) / Double(a), Double(p.cell.height) / Double(d))
        case .pixels: (sx, sy) = (1, 1)
        }
        let drawn = Double(p.pixels.width) * sx / (Double(p.pixels.height) * sy)
        return abs(drawn / (Double(source.0) / Double(source.1)) - 1)
    }

    @Test(arguments: resolutions)
    func aspectWithinTwoPercent(_ resolution: BackendResolution) {
        for (cw, ch) in Self.cells {
            for source in Self.sources {
                for upscale in [false, true] {
                    let cell = CellGeometry(width: cw, height: ch)
                    let p = Placement.fit(
                        source: PixelSize(width: source.0, height: source.1), box: CellBox(columns: 80, rows: 23),
                        cell: cell, resolution: resolution, upscale: upscale, centered: true)
                    #expect(p.cell == cell, "the placement measures with the cell it was given")
                    let e = Self.error(p, source: source, resolution: resolution)
                    // Sub-pixels are whole: a picture only a few of them tall
                    // cannot be exact; these all are at least 20 tall or wide.
                    #expect(
                        e <= 0.02, "\(source) in \(cw)x\(ch) cells at \(resolution), upscale \(upscale): \(p.pixels), error \(e)")
                    #expect(p.columns <= 80 && p.rows <= 23 && p.row >= 1 && p.column >= 1)
                    #expect(p.row - 1 + p.rows <= 23 && p.column - 1 + p.columns <= 80, "inside the box")
                }
            }
        }
    }

    @Test func halfBlocksInTallCellsAreNotStretched() {
        // The case: 8×19 cells, a round ball (square source).
        let p = Placement.fit(
            source: PixelSize(width: 300, height: 300), box: CellBox(columns: 80, rows: 23),
            cell: CellGeometry(width: 8, height: 19), resolution: .cells(across: 1, down: 2),
            upscale: false, centered: false)
        // 23 rows of 19 px = 437 px tall: 437 / 8 = 54.6 columns wide, 46 half-rows.
        #expect(p.pixels == PixelSize(width: 55, height: 46))
        #expect(p.columns == 55 && p.rows == 23)
        // Assuming 1:2 cells, as before, would have drawn 46×46: 16% too tall.
        let old = Placement.fit(
            source: PixelSize(width: 300, height: 300), box: CellBox(columns: 80, rows: 23),
            cell: .assumed, resolution: .cells(across: 1, down: 2), upscale: false, centered: false)
        #expect(old.pixels == PixelSize(width: 46, height: 46))
    }

    @Test func neverLargerThanTheSourceUnlessAsked() {
        let cell = CellGeometry(width: 8, height: 16)
        let small = PixelSize(width: 40, height: 30)
        let p = Placement.fit(
            source: small, box: CellBox(columns: 80, rows: 24), cell: cell, resolution: .pixels,
            upscale: false, centered: true)
        #expect(p.pixels == small)
        #expect(p.columns == 5 && p.rows == 2)
        #expect(p.row == 12 && p.column == 38, "centred")
        #expect(p.blankRowsAbove == 11, "the box's rows above the picture")
        let up = Placement.fit(
            source: small, box: CellBox(columns: 80, rows: 24), cell: cell, resolution: .pixels,
            upscale: true, centered: true)
        #expect(up.pixels == PixelSize(width: 512, height: 384), "fills the 640×384 box, 4:3 kept")
        let text = Placement.fit(
            source: small, box: CellBox(columns: 80, rows: 24), cell: cell,
            resolution: .cells(across: 1, down: 2), upscale: false, centered: false)
        #expect(text.pixels == PixelSize(width: 40, height: 30), "one source pixel per half block at most")
        #expect(text.row == 1 && text.blankRowsAbove == 0, "not centred: no margin")
        #expect(up.blankRowsAbove == 0, "the picture fills the box's height")
    }

    @Test func cellGeometryFromTheWindowSize() {
        #expect(CellGeometry.from(pixelWidth: 640, pixelHeight: 456, columns: 80, rows: 24) == CellGeometry(width: 8, height: 19))
        #expect(CellGeometry.from(pixelWidth: 0, pixelHeight: 0, columns: 80, rows: 24) == nil)
        #expect(CellGeometry.from(pixelWidth: 640, pixelHeight: 0, columns: 80, rows: 24) == nil)
        #expect(CellGeometry.from(pixelWidth: 60000, pixelHeight: 60000, columns: 1, rows: 1) == nil, "absurd")
    }

    /// Snapping a changed rectangle to cells of 8×19: from the picture's
    /// top-left, outward, never past the limit.
    @Test func cellAlignedRectangles() {
        let cell = CellGeometry(width: 8, height: 19)
        let limit = PixelSize(width: 50, height: 60)
        // x 9…12 lies in the cell at 8…15, y 20…39 in the cells at 19…37 and 38…56.
        let r = Rect(x: 9, y: 20, width: 4, height: 20)
        #expect(cell.aligned(r, within: limit) == Rect(x: 8, y: 19, width: 8, height: 38))
        // Only the start moves: 9→8 and 20→19, the end stays at 13, 40.
        #expect(cell.aligned(r, wholeCells: false, within: limit) == Rect(x: 8, y: 19, width: 5, height: 21))
        // The last cells (48…55, 57…75) end at the limit (50, 60).
        #expect(cell.aligned(Rect(x: 49, y: 58, width: 1, height: 2), within: limit) == Rect(x: 48, y: 57, width: 2, height: 3))
        // Already on cell boundaries: unchanged.
        let exact = Rect(x: 16, y: 19, width: 16, height: 38)
        #expect(cell.aligned(exact, within: limit) == exact)
    }
}
