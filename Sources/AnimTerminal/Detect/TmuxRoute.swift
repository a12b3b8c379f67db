/// Whether the player runs inside tmux, and how graphics then get through.
public struct TmuxRoute: Equatable, Sendable {
    /// Inside tmux (`TMUX` is set).
    public var inside = false
    /// tmux passes graphics through (`allow-passthrough on`), wrapped.
    public var passthrough = false
    /// tmux itself draws sixel (its DA1 lists 4): sixel is not wrapped.
    public var drawsSixel = false
}
