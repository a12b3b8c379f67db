import AnimKit

/// Full-resolution frames as iTerm2 inline images (iTerm2, WezTerm, and
/// others that implement `OSC 1337 ; File=`): a PNG of what changed.
///
/// An image written over cells replaces what they held, so a frame is the
/// cell-aligned rectangle that changed, placed at its cell. The player
/// keeps the bottom row free (besides `doNotMoveCursor`), so a terminal
/// that moves the cursor anyway never scrolls.
public final class ITerm2Backend: FrameBackend {
    /// What transparent pixels are drawn over.
    public let background: Background
    let tmux: Bool
    private var shown: RGBAImage?
    private var shownPlacement: Placement?

    /// An iTerm2 backend drawing over `background`, wrapped for tmux when `tmux`.
    public init(background: Background, tmux: Bool = false) {
        self.background = background
        self.tmux = tmux
    }

    /// iTerm2 images are drawn in the terminal's pixels.
    public var resolution: BackendResolution { .pixels }

    /// The cell-aligned rectangle that changed as one inline PNG at its cell
    /// (everything after `invalidate()` or at a new placement).
    public func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] {
        let image = background.flattened(image)
        var rect = Rect(x: 0, y: 0, width: image.width, height: image.height)
        if placement == shownPlacement, let shown {
            guard let changed = FrameDiff.changedRect(shown, image) else { return [] }
            rect = placement.cell.aligned(changed, within: PixelSize(width: image.width, height: image.height))
        }
        let patch = image.cropped(to: rect)
        guard let png = PNGFile.encodeQuick(patch, level: 6, filter: 4) else { return [] }
        shown = image
        shownPlacement = placement
        let cellRow = rect.y / placement.cell.height
        let cellColumn = rect.x / placement.cell.width
        var out = Escape.moveTo(row: placement.row + cellRow, column: placement.column + cellColumn)
        var sequence: [UInt8] = [Escape.esc, UInt8(ascii: "]")]
        sequence += Array(
            ("1337;File=inline=1;size=\(png.count);width=\(patch.width)px;height=\(patch.height)px;"
                + "preserveAspectRatio=0;doNotMoveCursor=1:").utf8)
        png.withUnsafeBytes { Base64.encode($0, into: &sequence) }
        sequence.append(0x07)
        out += tmux ? Escape.tmuxPassthrough(sequence) : sequence
        return out
    }

    /// Forgets the frame shown: the next `render` draws everything.
    public func invalidate() {
        shown = nil
        shownPlacement = nil
    }
}
