/// How a player draws frames: the protocol, and for text cells the colours
/// and symbols.
public struct FrameLook: Sendable {
    /// Text cells or a graphics protocol. `auto` is resolved before the
    /// player is made (`TerminalProbe`).
    public var graphics: GraphicsProtocol = .text
    /// How text cells send colours (graphics protocols ignore it).
    public var colorMode: ColorMode = .trueColor
    /// What transparent pixels are drawn over.
    public var background: Background = .none
    /// Levels per channel a colour on screen may differ from the frame's,
    /// so that a colour already set is reused (0: exact; 2 cannot be seen).
    public var colorTolerance = 2
    /// Text cells: the block characters (half blocks by default).
    public var symbols: TextSymbols = .half
    /// Text cells in 256 colours: how sub-pixels are dithered to the
    /// palette (blue noise by default).
    public var dither: PaletteDither = .noise
    /// Enlarge animations smaller than the box to fill it.
    public var upscale = false

    /// Truecolor half blocks, tolerance 2, no background.
    public init() {}
}
