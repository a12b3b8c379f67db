import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

extension Player {
    /// The backend `options.look.graphics` names, set up from the options
    /// and what the terminal has; `pane`: its number in a grid.
    static func makeBackend(_ options: PlayerOptions, _ terminal: TerminalCapabilities, pane: Int?) -> FrameBackend {
        let look = options.look
        let tmux = terminal.needsPassthrough(look.graphics)
        switch look.graphics {
        case .text:
            return TextBackend(
                mode: look.colorMode, tolerance: look.colorTolerance, background: look.background,
                symbols: look.symbols, dither: look.dither)
        case .kitty:
            return KittyBackend(
                background: look.background, tmux: tmux, imageID: kittyImageID(options.presentation, pane: pane),
                quiet: options.presentation.placement != nil, animates: terminal.kittyAnimates,
                sharedMemory: terminal.answers.kittySharedMemory)
        case .iterm2:
            return ITerm2Backend(background: look.background, tmux: tmux)
        case .sixel:
            return SixelBackend(
                background: look.background, registers: terminal.answers.sixelRegisters ?? 256,
                maxSize: terminal.answers.sixelMaxSize, tmux: tmux, composes: terminal.sixelComposes)
        }
    }

    /// kitty's image: one per pane of a grid (the low byte differs); one per
    /// box of `--place`, so the next preview there replaces this one (a file
    /// manager moving along a list); else nil: one made from the process id.
    static func kittyImageID(_ presentation: Presentation, pane: Int?) -> UInt32? {
        if let pane { return 0x2B00_0000 | (UInt32(truncatingIfNeeded: getpid()) & 0xFFFF) << 8 | UInt32(pane & 0xFF) }
        guard let place = presentation.placement, place.keepCursor else { return nil }
        return 0x2C00_0000 | UInt32((place.row - 1) & 0xFFF) << 12 | UInt32((place.column - 1) & 0xFFF)
    }
}
