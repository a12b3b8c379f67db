import AnimKit

/// Sixel graphics: frames in the terminal's own pixels, each colour
/// through one of the terminal's colour registers.
///
/// Only what changed is sent: the backend keeps the last frame as the
/// terminal shows it (after `Background`, on the percent grid), widens the
/// bounding box of the changed pixels to start at a cell corner (a sixel
/// image is drawn from the cursor's cell) and sends one image there that
/// draws only the changed pixels (P2 = 1: the others keep what they show).
///
/// Transparency: sixel has no colour for the terminal's background, so
/// when a pixel turns transparent the rectangle is widened to whole cells,
/// those are erased (`ESC[0m`, `ESC[row;colH` `ESC[nX` per row) and its
/// opaque pixels drawn again (a full frame with transparent pixels erases
/// its cells first). That erases the sixel pixels in xterm and foot, not
/// in konsole or contour: nothing better is possible there.
///
/// Layers: xterm keeps at most 16 sixel graphics (`MAX_GRAPHICS`) and
/// repaints the screen from them on an expose; a new one drops the one
/// whose top cell row is highest on the screen, and which of ours goes
/// cannot be known (other programs share the table). So a keyframe is a
/// base image of the frame below its top cell row, preceded by two blank
/// guard images in the top row (the base itself may drop one), and every
/// later image starts at the top row, so the base is never the one
/// dropped. Every pixel a droppable image has drawn (the top row, and what
/// changed since the keyframe) is "unsettled" and drawn again by every
/// image. A new keyframe comes when half the frame is unsettled, or when
/// redrawing has cost as many bytes as the keyframe did. Where the player
/// keeps a blank cell row above the picture (`Placement.blankRowsAbove`),
/// the guards and later images start in that row, transparent there, and
/// the base is the whole frame: the picture's top row, much of a mostly
/// static clip's bytes, is not redrawn. A layout cut into tiles (a
/// terminal's small maximum size) sends only what changed.
///
/// Where a sixel image clears what lies under it (`composes` false) every
/// frame that changed is one image of the whole picture. Every image starts
/// with an absolute cursor move: terminals leave the cursor in different places.
public final class SixelBackend: FrameBackend {
    /// What transparent pixels are drawn over.
    public let background: Background
    /// Colour registers used (the terminal's count, 2…1024).
    public var registers: Int { palette.registerCount }
    /// The largest sixel image the terminal takes, nil when not known.
    public let maxSize: PixelSize?
    /// Wrap each sixel image for tmux's passthrough.
    public let tmux: Bool
    /// Whether undrawn pixels keep what they showed; if not, frames go whole.
    public let composes: Bool

    private let palette: SixelPalette
    private let encoder = SixelEncoder()
    /// The frame on screen as sent (one key a pixel; empty: unknown),
    /// where, and which.
    private var shown = SixelShown()
    private var next: [UInt32] = []
    private var drawn: [UInt32] = []
    private var indices: [UInt16] = []
    private var unsettled = SixelUnsettled()

    /// A sixel backend for a terminal with `registers` colour registers
    /// (clamped to 2…1024) taking images of at most `maxSize` pixels.
    public init(
        background: Background, registers: Int = 256, maxSize: PixelSize? = nil, tmux: Bool = false,
        composes: Bool = true
    ) {
        self.background = background
        self.maxSize = maxSize
        self.tmux = tmux
        self.composes = composes
        palette = SixelPalette(registers: registers)
    }

    /// Sixel draws the terminal's pixels.
    public var resolution: BackendResolution { .pixels }

    /// Cursor moves, erases and sixel images for the changed cell-aligned
    /// rectangle, or everything after `invalidate()` or at a new placement
    /// (the old one's cells erased first); `[]` when nothing visible changed.
    public func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] {
        if shown.placement == placement, shown.index == index { return [] }
        let layout = SixelLayout(
            placement: placement, frame: PixelSize(width: image.width, height: image.height),
            cell: placement.cell, maxSize: maxSize)
        let size = layout.visible
        let transparent = SixelFrame.load(image, size: size, background: background, into: &next)
        var out: [UInt8] = []
        let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let layered = composes && layout.tiles(of: whole).count == 1
        let same = shown.placement == placement && shown.pixels.count == next.count
        let change = same ? SixelFrame.changes(next, shown.pixels, width: size.width, height: size.height) : nil
        if same, change == nil {
            shown.index = index
            return []
        }
        // A new keyframe when half of what lies below the top row is
        // unsettled, or when redrawing unchanged pixels (an image's bytes in
        // proportion to those below the top row) has cost one keyframe:
        // at most twice the best spacing's bytes.
        let above =
            layered && placement.blankRowsAbove > 0 && placement.row > 1
            && layout.tile.height >= size.height + layout.cell.height
        let topRow = above ? 0 : min(layout.cell.height, size.height) * size.width
        let layerCosts =
            !layered
            || ((unsettled.count - topRow) * 2 <= next.count - topRow && unsettled.redrawnBytes < unsettled.keyframeBytes)
        if composes, same, let change, layerCosts {
            let changed = layout.aligned(change.rect, wholeCells: change.cleared)
            if change.cleared { appendErase(layout.cells(of: changed), at: placement, to: &out) }
            var rect = changed
            if layered {
                // From the top (or blank) row: the next one xterm drops.
                let was = unsettled.rect.width > 0 ? unsettled.rect : changed
                let x0 = min(changed.x, was.x)
                let x1 = max(changed.x + changed.width, was.x + was.width)
                rect = Rect(
                    x: x0, y: 0, width: x1 - x0, height: max(changed.y + changed.height, was.y + was.height))
                unsettled.rect = rect
            }
            let pixels = draw(
                rect, everything: change.cleared ? changed : nil, blankAbove: above ? layout.cell.height : 0,
                width: size.width, layout: layout, placement: placement, into: &out)
            if !layered { unsettled.settleAll(next.count) }
            unsettled.redrawnBytes += out.count * pixels.unchanged / max(pixels.drawn, 1)
        } else {
            // A keyframe at the same placement covers it all: no erase.
            if let old = shown.placement, !same { appendErase((0, 0, old.rows, old.columns), at: old, to: &out) }
            if transparent { appendErase(layout.cells(of: whole), at: placement, to: &out) }
            if layered {
                appendKeyframe(size: size, layout: layout, placement: placement, blankAbove: above, into: &out)
                unsettled.keyframeBytes = out.count
                unsettled.redrawnBytes = 0
            } else {
                unsettled.settleAll(next.count)
                draw(whole, everything: whole, width: size.width, layout: layout, placement: placement, into: &out)
                unsettled.settleAll(next.count)
            }
        }
        swap(&shown.pixels, &next)
        shown.placement = placement
        shown.index = index
        return out
    }

    /// Sends all of `next`: guards in the top row, the base below it, then
    /// the top row (unsettled); with a blank row above, the guards go there
    /// and the base is the whole frame.
    private func appendKeyframe(
        size: PixelSize, layout: SixelLayout, placement: Placement, blankAbove: Bool, into out: inout [UInt8]
    ) {
        let n = size.width * size.height
        let top = blankAbove ? 0 : min(layout.cell.height, size.height)
        let base = Rect(x: 0, y: top, width: size.width, height: size.height - top)
        // The base may drop one guard; the other is the next one dropped.
        for _ in 0..<2 {
            out += Escape.moveTo(row: placement.row - (blankAbove ? 1 : 0), column: placement.column)
            out += tmux ? Escape.tmuxPassthrough(Escape.sixelGuard) : Escape.sixelGuard
        }
        if unsettled.mask.count != n { unsettled.mask = [Bool](repeating: false, count: n) }
        if base.height > 0 { draw(base, everything: base, width: size.width, layout: layout, placement: placement, into: &out) }
        let topRect = Rect(x: 0, y: 0, width: top > 0 ? size.width : 0, height: top)
        unsettled.rect = topRect
        if top > 0 { draw(topRect, everything: topRect, width: size.width, layout: layout, placement: placement, into: &out) }
        unsettled.unsettleFirst(top * size.width)
    }

    /// Bytes that clear a screen of `rows` rows and free xterm's graphics:
    /// `rows` line feeds on the last row (graphics scrolled off the top are
    /// deleted), then erase all. Erasing alone leaves them in their slots,
    /// and after a smaller window they lie below the new keyframe, which the
    /// next images then drop. For the alternate screen only.
    public static func clearing(rows: Int) -> [UInt8] {
        Escape.resetAttributes + Escape.moveTo(row: max(rows, 1), column: 1)
            + [UInt8](repeating: 0x0A, count: max(rows, 1)) + Escape.clearScreen
    }

    /// Forgets the frame shown: the next `render` draws everything.
    public func invalidate() {
        shown.placement = nil
        shown.index = nil
        shown.pixels.removeAll(keepingCapacity: true)
        unsettled = SixelUnsettled()
    }

    /// Erases `cells` (0-based within `placement`) to the terminal's background.
    private func appendErase(
        _ cells: (row: Int, column: Int, rows: Int, columns: Int), at placement: Placement,
        to out: inout [UInt8]
    ) {
        guard cells.rows > 0, cells.columns > 0 else { return }
        out += Escape.resetAttributes
        out += Escape.eraseCells(
            row: placement.row + cells.row, column: placement.column + cells.column, rows: cells.rows,
            columns: cells.columns)
    }

    /// Sends the pixels of `rect` of `next` (rows `width` wide) that
    /// differ from `shown` or are unsettled, and every opaque one inside
    /// `everything`, in one image from `blankAbove` transparent pixel rows
    /// above `rect` (0: from `rect`, in tiles); marks those drawn unsettled
    /// and the transparent ones of `everything` settled. Returns the opaque
    /// pixels drawn, and how many below the top cell row did not change.
    @discardableResult
    private func draw(
        _ rect: Rect, everything: Rect?, blankAbove: Int = 0, width: Int, layout: SixelLayout,
        placement: Placement, into out: inout [UInt8]
    ) -> (drawn: Int, unchanged: Int) {
        precondition(blankAbove % layout.cell.height == 0, "a blank row is whole cells")
        let blank = blankAbove * rect.width
        let n = blank + rect.width * rect.height
        if drawn.count < n {
            drawn = [UInt32](repeating: 0, count: n)
            indices = [UInt16](repeating: 0, count: n)
        }
        for i in 0..<blank { drawn[i] = 0 }
        let all = everything ?? Rect(x: 0, y: 0, width: 0, height: 0)
        var count = unsettled.count
        var sent = 0
        var unchanged = 0
        let top = blankAbove > 0 ? 0 : layout.cell.height  // redrawn after any keyframe too
        next.withUnsafeBufferPointer { next in
            shown.pixels.withUnsafeBufferPointer { shown in
                unsettled.mask.withUnsafeMutableBufferPointer { unsettled in
                    drawn.withUnsafeMutableBufferPointer { drawn in
                        var o = blank
                        for y in rect.y..<(rect.y + rect.height) {
                            let rowAll = y >= all.y && y < all.y + all.height
                            for x in rect.x..<(rect.x + rect.width) {
                                let i = y * width + x
                                let inAll = rowAll && x >= all.x && x < all.x + all.width
                                let key = next[i]
                                let wanted = inAll || unsettled[i] || shown.count != next.count || key != shown[i]
                                drawn[o] = wanted ? key : 0
                                if wanted, key != 0 {
                                    sent += 1
                                    if y >= top, shown.count == next.count, key == shown[i] { unchanged += 1 }
                                    if !unsettled[i] {
                                        unsettled[i] = true
                                        count += 1
                                    }
                                }
                                if inAll, key == 0, unsettled[i] {
                                    unsettled[i] = false
                                    count -= 1
                                }
                                o += 1
                            }
                        }
                    }
                }
            }
        }
        unsettled.count = count
        let mapping = drawn.withUnsafeBufferPointer { drawn in
            indices.withUnsafeMutableBufferPointer { out in
                palette.registers(
                    for: UnsafeBufferPointer(rebasing: drawn[0..<n]), into: UnsafeMutableBufferPointer(rebasing: out[0..<n]))
            }
        }
        guard let mapping else { return (0, 0) }
        let colors = palette.colors
        let area = Rect(x: rect.x, y: rect.y - blankAbove, width: rect.width, height: rect.height + blankAbove)
        indices.withUnsafeMutableBufferPointer { all in
            let indices = UnsafeBufferPointer(rebasing: all[0..<n])
            for tile in blankAbove > 0 ? [area] : layout.tiles(of: rect) {
                let local = Rect(x: tile.x - area.x, y: tile.y - area.y, width: tile.width, height: tile.height)
                guard Self.drawsSomething(indices, stride: rect.width, local) else { continue }
                if !mapping.exact {
                    drawn.withUnsafeBufferPointer { keys in
                        colors.withUnsafeBufferPointer { colors in
                            SixelColumns.straighten(
                                UnsafeMutableBufferPointer(rebasing: all[0..<n]),
                                keys: UnsafeBufferPointer(rebasing: keys[0..<n]), stride: rect.width, tile: local,
                                colors: colors)
                        }
                    }
                }
                out += Escape.moveTo(
                    row: placement.row + tile.y / layout.cell.height,
                    column: placement.column + tile.x / layout.cell.width)
                if tmux {
                    var image: [UInt8] = []
                    encoder.encode(indices, stride: rect.width, tile: local, colors: colors, into: &image)
                    out += Escape.tmuxPassthrough(image)
                } else {
                    encoder.encode(indices, stride: rect.width, tile: local, colors: colors, into: &out)
                }
            }
        }
        return (sent, unchanged)
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
