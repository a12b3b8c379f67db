import AnimKit

/// Text cells: each cell a glyph of `symbols` and two colours, drawn by
/// `FrameRenderer`, which sends only the cells that changed.
public final class TextBackend: FrameBackend {
    /// The diffing renderer; its `shown` is what the screen shows.
    public let renderer: FrameRenderer
    /// What transparent pixels are drawn over.
    public let background: Background
    /// The block characters cells are drawn with.
    public let symbols: TextSymbols
    /// How the 256-colour mapping dithers (no effect in truecolor).
    public let dither: PaletteDither

    /// `tolerance`: see `FrameRenderer.tolerance`; `dither`: see `PaletteDither`.
    public init(
        mode: ColorMode, tolerance: Int, background: Background, symbols: TextSymbols = .half,
        dither: PaletteDither = .noise
    ) {
        renderer = FrameRenderer(mode: mode, tolerance: tolerance)
        self.background = background
        self.symbols = symbols
        self.dither = dither
    }

    /// The symbols' sub-pixels per cell: frames come at that many pixels a cell.
    public var resolution: BackendResolution { symbols.resolution }

    /// Fits each cell to its sub-pixels and sends the cells that changed.
    public func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] {
        let grid = CellGrid(image: image, background: background, symbols: symbols, mode: renderer.mode, dither: dither)
        return renderer.render(grid, row: placement.row, column: placement.column)
    }

    /// The next frame is drawn whole.
    public func invalidate() { renderer.invalidate() }
    /// Colours and cursor are sent again as needed.
    public func outputWasInterleaved() { renderer.colorsWereReset() }
    /// The renderer goes on from there.
    public func cursorWasMoved(row: Int, column: Int) { renderer.cursorWasMoved(row: row, column: column) }
}
