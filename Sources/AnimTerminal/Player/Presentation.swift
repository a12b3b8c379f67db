/// How a play is shown: one choice, where there were six flags.
public enum Presentation: Sendable, Equatable {
    /// The whole screen: alternate screen, raw mode, keys, status line.
    case fullScreen
    /// One of several files on a screen the caller has entered: cleared at
    /// the start and end; `n` and `p` end the play with `.next`, `.previous`.
    case list
    /// Frames written in place one after another, with no terminal set-up
    /// (output that is not a terminal).
    case plain
    /// Drawn into a box of the screen as it is, for previews (`--inline`,
    /// `--place`): no alternate screen, no keys.
    case inline(InlinePlacement)
    /// The first frame played drawn into a box, then return at once (`--frame N`).
    case still(InlinePlacement)

    /// The preview box, for `inline` and `still`.
    var placement: InlinePlacement? {
        switch self {
        case .inline(let p), .still(let p): p
        default: nil
        }
    }
}
