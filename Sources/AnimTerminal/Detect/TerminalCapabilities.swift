/// What `TerminalProbe` found out about the terminal, and why.
public struct TerminalCapabilities: Equatable, Sendable {
    /// Graphics protocols the terminal draws, best first (empty: text only).
    public var graphics: [GraphicsProtocol] = []
    /// 24-bit colour in SGR (`38;2;r;g;b`).
    public var trueColor = false
    /// Pixels per cell: measured, or `CellGeometry.assumed`.
    public var cell: CellGeometry = .assumed
    /// Inside tmux or not, and how graphics get through it.
    public var tmux = TmuxRoute()
    /// Inside GNU screen (which shows APC and DCS bodies as text).
    public var insideScreen = false
    /// Whether a sixel image leaves what lies under its undrawn pixels
    /// (false: mlterm, Konsole; `SixelBackend.composes`).
    public var sixelComposes = true
    /// Whether kitty animation frames are shown (`KittyBackend.animates`):
    /// only where the terminal is kitty by its own word (its XTVERSION
    /// reply, or `KITTY_WINDOW_ID` with kitty's `TERM`). Ghostty, WezTerm,
    /// Warp and Konsole draw kitty images but not their frames.
    public var kittyAnimates = false
    /// Whether a window grown again brings back the lines a shrink pushed
    /// into the scrollback (VTE).
    public var linesReturnOnGrow = false
    /// The finest block symbols the terminal draws without a font that has
    /// them (`TerminalProbe.drawnSymbols`; `--symbols auto` follows it).
    public var symbols: DrawnSymbols = .half
    /// The terminal's name as found (`TERM_PROGRAM`, `TERM`, …), for messages.
    public var terminalName = ""
    /// What the terminal said to the query round.
    public var answers = TerminalAnswers()
    /// One line per finding: what was seen and what it decided.
    public var reasons: [String] = []

    /// Nothing known: text cells, 256 colours, the assumed cell.
    public init() {}

    /// The protocol `auto` picks: the first graphics protocol, else text.
    public var best: GraphicsProtocol { graphics.first ?? .text }

    /// Whether output for `graphics` is wrapped for tmux's passthrough (not
    /// text, nor sixel when tmux draws it).
    public func needsPassthrough(_ graphics: GraphicsProtocol) -> Bool {
        guard tmux.inside, graphics != .text else { return false }
        return !(graphics == .sixel && tmux.drawsSixel)
    }

    /// Adds `p` to `graphics` (at `front` or the end) unless present, noting `why`.
    mutating func add(_ p: GraphicsProtocol, front: Bool = false, because why: String? = nil) {
        guard !graphics.contains(p) else { return }
        if front { graphics.insert(p, at: 0) } else { graphics.append(p) }
        if let why { note(why) }
    }

    mutating func remove(_ p: GraphicsProtocol) { graphics.removeAll { $0 == p } }

    mutating func note(_ line: String) { reasons.append(line) }
}
