/// Which backend: `--protocol auto|kitty|sixel|iterm2|text`.
public enum GraphicsProtocol: String, Sendable, CaseIterable {
    /// kitty's graphics protocol, DEC sixel, iTerm2 inline images, or text cells.
    case kitty, sixel, iterm2, text
}
