/// Whether the player runs inside tmux, and how graphics then reach the
/// terminal outside it.
public struct TmuxRoute: Equatable, Sendable {
    /// Inside tmux (`TMUX` is set).
    public var inside = false
    /// tmux passes graphics through (`allow-passthrough on`): graphics for
    /// the outer terminal go wrapped in `Escape.tmuxPassthrough`.
    public var passthrough = false
    /// tmux itself draws sixel (its DA1 lists 4): sixel goes to tmux as it
    /// is, not through passthrough.
    public var drawsSixel = false
}
