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
    /// See `sixelMaxWidth`.
    public var sixelMaxHeight: Int?
    /// Inside tmux; and whether tmux passes graphics through
    /// (`allow-passthrough on`).
    public var tmux = false
    /// See `tmux`: graphics for the outer terminal go wrapped in
    /// `Escape.tmuxPassthrough` (see `needsPassthrough`).
    public var tmuxPassthrough = false
    /// tmux itself draws sixel (its DA1 lists 4): sixel goes to tmux as
    /// it is, not through passthrough.
    public var sixelByTmux = false
    /// The terminal's name as found (`TERM_PROGRAM`, `TERM`, …), for messages.
    public var terminalName = ""
    /// What the terminal said it is (XTVERSION: `kitty(0.35.2)`), if it did.
    public var terminalVersion: String?
    /// Whether the terminal answered the query round (false: nothing came
    /// back within the time allowed, or no query was sent).
    public var answered = false
    /// How long the query round took, from writing the queries to the DA1
    /// reply or the timeout; nil when no query was sent.
    public var queryNanoseconds: Int64?
    /// The row the cursor was on before the player took the screen (the
    /// shell's output ends there), when the terminal said (DECXCPR).
    public var cursorRow: Int?
    /// How many replies the round brought back.
    public var replyCount = 0
    /// Bytes read during the round that were not replies (keys typed
    /// meanwhile), in order: the player parses them as its first keys.
    /// At most `TerminalProbe.maxPendingInput`.
    public var pendingInput: [UInt8] = []
    /// One line per finding: what was seen and what it decided.
    public var reasons: [String] = []

    /// Nothing known: text cells, 256 colours, the assumed cell.
    public init() {}

    /// The protocol `auto` picks: the first graphics protocol, else text.
    public var best: GraphicsProtocol { graphics.first ?? .text }

    /// Whether output for `graphics` has to be wrapped for tmux's
    /// passthrough to reach the terminal (never for text; not for sixel
    /// when tmux draws it itself).
    public func needsPassthrough(_ graphics: GraphicsProtocol) -> Bool {
        guard tmux, graphics != .text else { return false }
        return !(graphics == .sixel && sixelByTmux)
    }

    /// Adds `p` to `graphics` (at `front`, or the end) unless present.
    mutating func add(_ p: GraphicsProtocol, front: Bool = false) {
        guard !graphics.contains(p) else { return }
        if front { graphics.insert(p, at: 0) } else { graphics.append(p) }
    }

    /// Removes `p` from `graphics`.
    mutating func remove(_ p: GraphicsProtocol) { graphics.removeAll { $0 == p } }

    /// Records a finding.
    mutating func note(_ line: String) { reasons.append(line) }
}
