import AnimKit

/// Text cells: each cell a glyph and two colours, drawn by `FrameRenderer`,
/// which sends only the cells that changed.
public final class TextBackend: FrameBackend {
    public let renderer: FrameRenderer
    public let background: Background

    public init(mode: ColorMode, tolerance: Int, background: Background) {
        renderer = FrameRenderer(mode: mode, tolerance: tolerance)
        self.background = background
    }

    public var resolution: BackendResolution { .cells(across: 1, down: 2) }

    public func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] {
        let grid = CellGrid(image: image, background: background, mode: renderer.mode)
        return renderer.render(grid, row: placement.row, column: placement.column)
    }

    public func invalidate() { renderer.invalidate() }
    public func outputWasInterleaved() { renderer.colorsWereReset() }
}
