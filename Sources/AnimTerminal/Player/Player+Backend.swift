import AnimKit

extension Player {
    /// The backend `options.graphics` names, set up from the options.
    static func makeBackend(_ options: PlayerOptions) -> FrameBackend {
        switch options.graphics {
        case .text:
            return TextBackend(
                mode: options.colorMode, tolerance: options.colorTolerance, background: options.background,
                symbols: options.symbols, dither: options.dither)
        case .kitty:
            return KittyBackend(
                background: options.background, tmux: options.tmuxPassthrough, imageID: options.kittyImageID,
                quiet: options.inline != nil)
        case .iterm2:
            return ITerm2Backend(background: options.background, tmux: options.tmuxPassthrough)
        case .sixel:
            return SixelBackend(
                background: options.background, registers: options.sixelRegisters ?? 256,
                maxSize: options.sixelMaxSize, tmux: options.tmuxPassthrough)
        }
    }
}
