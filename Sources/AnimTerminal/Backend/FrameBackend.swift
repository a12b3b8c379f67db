import AnimKit

/// How finely a backend draws: so many sub-pixels per cell (text symbols:
/// 1×2 half blocks, 2×2 quadrants, 2×3 sextants, 2×4 octants), or the
/// terminal's own pixels (kitty, sixel, iTerm2).
public enum BackendResolution: Equatable, Sendable {
    /// Text cells of `across`×`down` sub-pixels each.
    case cells(across: Int, down: Int)
    /// The terminal's own pixels.
    case pixels
}

/// One way of putting frames on the screen: text cells, kitty graphics,
/// sixel or iTerm2 inline images.
///
/// A backend turns frames into bytes, sending only what changed since it
/// last showed; the player writes them (in one synchronized update with the
/// status line) and owns the cursor between frames.
public protocol FrameBackend: AnyObject {
    /// How many pixels the frames it is given should have per cell.
    var resolution: BackendResolution { get }

    /// The bytes that bring the screen from what this backend last showed to
    /// `image` (`placement.pixels` in size) at `placement`; `index` is the
    /// animation's frame: the same index is the same picture until
    /// `invalidate`.
    func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8]

    /// The bytes that show frame `index` from what the terminal holds
    /// (kitty's uploaded frames), or nil: the player then calls `render`.
    func renderStored(index: Int, placement: Placement) -> [UInt8]?

    /// Whether the terminal keeps every frame drawn for `renderStored`: the
    /// player's cache then keeps only the frames about to be drawn.
    var keepsFrames: Bool { get }

    /// Forget what the screen shows (a resize, a resume, a cleared screen):
    /// the next `render` draws everything.
    func invalidate()

    /// Something else wrote to the screen (a status line) and reset the
    /// colours and moved the cursor; what the backend drew is still there.
    func outputWasInterleaved()

    /// The player moved the cursor to 1-based (`row`, `column`) after the
    /// frame (colours unchanged).
    func cursorWasMoved(row: Int, column: Int)

    /// The bytes that free what the terminal holds for this backend (kitty's
    /// images), sent once before the terminal is restored.
    func finish() -> [UInt8]

    /// A reply the terminal sent (kitty's `ESC _G … ESC \`); true when the
    /// backend changed its strategy and wants everything drawn again.
    func handleReply(_ reply: TerminalReply) -> Bool
}

extension FrameBackend {
    /// By default nil: the backend always needs the image.
    public func renderStored(index: Int, placement: Placement) -> [UInt8]? { nil }
    /// By default false: the terminal keeps nothing to show again.
    public var keepsFrames: Bool { false }
    /// By default nothing: the backend keeps no colour or cursor state.
    public func outputWasInterleaved() {}
    /// By default nothing: the backend does not track the cursor.
    public func cursorWasMoved(row: Int, column: Int) {}
    /// By default no bytes: the terminal holds nothing for the backend.
    public func finish() -> [UInt8] { [] }
    /// By default false: replies are ignored.
    public func handleReply(_ reply: TerminalReply) -> Bool { false }
}
