/// What the player found out about the terminal, and why: the result of
/// `TerminalProbe`, printed by `anim play --probe`.
public struct TerminalCapabilities: Equatable, Sendable {
    /// Graphics protocols the terminal draws, best first (empty: text only).
    public var graphics: [GraphicsProtocol] = []
    /// 24-bit colour in SGR (`38;2;r;g;b`).
    public var trueColor = false
    /// Pixels per cell: measured, or `CellGeometry.assumed`.
    public var cell: CellGeometry = .assumed
    /// Sixel colour registers (XTSMGRAPHICS), nil when not reported.
    public var sixelRegisters: Int?
    /// Largest sixel image in pixels (XTSMGRAPHICS), nil when not reported.
    public var sixelMaxWidth: Int?
    public var sixelMaxHeight: Int?
    /// Inside tmux; and whether tmux passes graphics through
    /// (`allow-passthrough on`).
    public var tmux = false
    public var tmuxPassthrough = false
    /// The terminal's name as found (`TERM_PROGRAM`, `TERM`, …), for messages.
    public var terminalName = ""
    /// Whether the terminal answered the query round (false: nothing came
    /// back within the time allowed, or no query was sent).
    public var answered = false
    /// One line per finding: what was seen and what it decided.
    public var reasons: [String] = []

    public init() {}

    /// The protocol `auto` picks: the first graphics protocol, else text.
    public var best: GraphicsProtocol { graphics.first ?? .text }
}
