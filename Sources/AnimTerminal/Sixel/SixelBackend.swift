import AnimKit

/// Sixel graphics: frames in the terminal's own pixels, each colour
/// through one of the terminal's colour registers.
///
/// Only what changed is sent: the backend keeps the last frame shown (as
/// the terminal shows it: after `Background`, on the percent grid of sixel
/// colours), finds the bounding box of the pixels that differ, widens it
/// to start at a cell corner (a sixel image is drawn from the cursor's
/// cell) and sends one sixel image for it, placed at its cell. Inside it
/// only the changed pixels are drawn; the others are left as they are
/// (P2 = 1), so a static area is never redrawn with another palette.
///
/// Transparency: with P2 = 1 a pixel that is not drawn shows what was there
/// before, so a pixel that turns transparent cannot be drawn transparent.
/// Sixel has no colour for "the terminal's background" (P2 = 0 fills with
/// register 0, a colour), so when any pixel of the rectangle turns
/// transparent the rectangle is widened to whole cells, those cells are
/// erased (`ESC[0m`, then `ESC[row;colH` `ESC[nX` per row) and every
/// opaque pixel of the rectangle is drawn again. Erasing cells erases the
/// sixel pixels over them in xterm and foot; not everywhere (konsole only
/// for cells with a background colour, contour not at all: ratatui-image's
/// compatibility table), and there nothing better is possible. A
/// full frame with transparent pixels erases its cells first, since what
/// the screen held there is not known.
///
/// Colours: `SixelPalette` keeps colours in their registers from frame to
/// frame. Every image starts with an absolute cursor move, because
/// terminals leave the cursor in different places after a sixel image.
public final class SixelBackend: FrameBackend {
    /// What transparent pixels are drawn over.
    public let background: Background
    /// Pixels per cell, to place images at cell corners.
    public let cell: CellGeometry
    /// Colour registers used (the terminal's count, 2…1024).
    public var registers: Int { palette.registerCount }
    /// The largest sixel image the terminal takes, nil when not known.
    public let maxSize: PixelSize?
    /// Wrap each sixel image for tmux's passthrough.
    public let tmux: Bool

    private let palette: SixelPalette
    private let encoder = SixelEncoder()
    private let colorMap = SixelColorMap()
    private var shown: [UInt32] = []
    private var next: [UInt32] = []
    private var drawn: [UInt32] = []
    private var indices: [UInt16] = []
    private var shownPlacement: Placement?
    private var shownIndex: Int?

    /// A sixel backend for a terminal with cells of `cell` pixels,
    /// `registers` colour registers (XTSMGRAPHICS; clamped to 2…1024), taking
    /// images of at most `maxSize` pixels, inside tmux or not.
    public init(background: Background, cell: CellGeometry = .assumed, registers: Int = 256,
                maxSize: PixelSize? = nil, tmux: Bool = false) {
        self.background = background
        self.cell = cell
        self.maxSize = maxSize
        self.tmux = tmux
        palette = SixelPalette(registers: registers)
    }

    /// Sixel draws the terminal's pixels.
    public var resolution: BackendResolution { .pixels }

    /// The bytes that bring the screen from the last frame shown to
    /// `image`: cursor moves, erases and sixel images for the changed
    /// cell-aligned rectangle, or everything after `invalidate()` or a new
    /// placement (then the old placement's cells are erased first); `[]`
    /// when nothing the terminal can show changed.
    public func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] {
        if shownPlacement == placement, shownIndex == index { return [] }
        let layout = SixelLayout(placement: placement, frame: PixelSize(width: image.width, height: image.height),
                                 cell: placement.cell.isMeasured ? placement.cell : cell, maxSize: maxSize)
        let size = layout.visible
        let transparent = SixelFrame.load(image, size: size, background: background, into: &next)
        var out: [UInt8] = []
        let rect: Rect, onlyChanged: Bool
        if let old = shownPlacement, old == placement, shown.count == next.count {
            guard let change = SixelFrame.changes(next, shown, width: size.width, height: size.height) else {
                shownIndex = index
                return []
            }
            rect = layout.aligned(change.rect, wholeCells: change.cleared)
            onlyChanged = !change.cleared
            if change.cleared { appendErase(layout.cells(of: rect), at: placement, to: &out) }
        } else {
            if let old = shownPlacement { appendErase((0, 0, old.rows, old.columns), at: old, to: &out) }
            rect = Rect(x: 0, y: 0, width: size.width, height: size.height)
            if transparent { appendErase(layout.cells(of: rect), at: placement, to: &out) }
            onlyChanged = false
        }
        draw(rect, width: size.width, onlyChanged: onlyChanged, layout: layout, placement: placement, into: &out)
        swap(&shown, &next)
        shownPlacement = placement
        shownIndex = index
        return out
    }

    /// Forgets the frame shown: the next `render` draws everything.
    public func invalidate() {
        shownPlacement = nil
        shownIndex = nil
        shown.removeAll(keepingCapacity: true)
    }

    /// Erases `cells` (0-based within `placement`) to the terminal's background.
    private func appendErase(_ cells: (row: Int, column: Int, rows: Int, columns: Int), at placement: Placement,
                             to out: inout [UInt8]) {
        guard cells.rows > 0, cells.columns > 0 else { return }
        out += Escape.resetAttributes
        for r in 0..<cells.rows {
            out += Escape.moveTo(row: placement.row + cells.row + r, column: placement.column + cells.column)
            out += Escape.eraseCharacters(cells.columns)
        }
    }

    /// Sends the pixels of `rect` of `next` (rows `width` wide): those that
    /// differ from `shown` when `onlyChanged`, else every opaque one.
    private func draw(_ rect: Rect, width: Int, onlyChanged: Bool, layout: SixelLayout, placement: Placement,
                      into out: inout [UInt8]) {
        let n = rect.width * rect.height
        if drawn.count < n { drawn = [UInt32](repeating: 0, count: n); indices = [UInt16](repeating: 0, count: n) }
        next.withUnsafeBufferPointer { next in
            shown.withUnsafeBufferPointer { shown in
                drawn.withUnsafeMutableBufferPointer { drawn in
                    var o = 0
                    for y in rect.y..<(rect.y + rect.height) {
                        for i in (y * width + rect.x)..<(y * width + rect.x + rect.width) {
                            drawn[o] = onlyChanged && next[i] == shown[i] ? 0 : next[i]
                            o += 1
                        }
                    }
                }
            }
        }
        let mapping = drawn.withUnsafeBufferPointer { palette.mapping(for: UnsafeBufferPointer(rebasing: $0[0..<n])) }
        guard let mapping else { return }
        drawn.withUnsafeBufferPointer { drawn in
            indices.withUnsafeMutableBufferPointer { out in
                colorMap.map(UnsafeBufferPointer(rebasing: drawn[0..<n]), mapping, into: UnsafeMutableBufferPointer(rebasing: out[0..<n]))
            }
        }
        let colors = palette.colors
        indices.withUnsafeBufferPointer { all in
            let indices = UnsafeBufferPointer(rebasing: all[0..<n])
            for tile in layout.tiles(of: rect) {
                let local = Rect(x: tile.x - rect.x, y: tile.y - rect.y, width: tile.width, height: tile.height)
                guard Self.drawsSomething(indices, stride: rect.width, local) else { continue }
                out += Escape.moveTo(row: placement.row + tile.y / layout.cellHeight,
                                     column: placement.column + tile.x / layout.cellWidth)
                if tmux {
                    var image: [UInt8] = []
                    encoder.encode(indices, stride: rect.width, tile: local, colors: colors, into: &image)
                    out += Escape.tmuxPassthrough(image)
                } else {
                    encoder.encode(indices, stride: rect.width, tile: local, colors: colors, into: &out)
                }
            }
        }
    }

    private static func drawsSomething(_ indices: UnsafeBufferPointer<UInt16>, stride: Int, _ tile: Rect) -> Bool {
        for y in tile.y..<(tile.y + tile.height) {
            for i in (y * stride + tile.x)..<(y * stride + tile.x + tile.width) where indices[i] != SixelEncoder.none {
                return true
            }
        }
        return false
    }
}
