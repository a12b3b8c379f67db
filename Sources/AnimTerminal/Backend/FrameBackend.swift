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
/// A backend turns frames into bytes; it never writes them. The player
/// sends everything through the one `TerminalWriter`, wraps each frame and
/// its status line in one synchronized update, and owns the cursor between
/// frames. Each backend keeps what it last showed and sends only what
/// changed since.
public protocol FrameBackend: AnyObject {
    /// How many pixels the frames it is given should have per cell.
    var resolution: BackendResolution { get }

    /// The bytes that bring the screen from what this backend last showed to
    /// `image`, frame `index` of the animation (an index identifies the
    /// pixels: the same index is the same picture until `invalidate`), drawn
    /// at `placement`. `image` is `placement.pixels` in size. No
    /// synchronized-update markers: the player adds them.
    func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8]

    /// The bytes that show frame `index` from what the terminal already
    /// holds, without its pixels (kitty keeps uploaded frames), or nil when
    /// the backend needs the image: then the player decodes it and calls
    /// `render`.
    func renderStored(index: Int, placement: Placement) -> [UInt8]?

    /// Whether the terminal keeps every frame drawn, to be shown again by
    /// `renderStored` (kitty's stored frames): the player's cache then
    /// keeps only the frames about to be drawn, not a copy of them all.
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

    /// The bytes that free what the terminal holds for this backend (kitty:
    /// the uploaded images). Sent once, before the terminal is restored.
    func finish() -> [UInt8]

    /// A reply the terminal sent, addressed to graphics (a kitty `ESC _G …
    /// ESC \` reply, without the framing). Returns true when the backend
    /// changed its strategy and wants everything drawn again.
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
