/// How many times an animation plays.
public enum Plays: Equatable, Sendable {
    /// Repeats without end.
    case forever
    /// Plays this many times in all (at least 1).
    case count(Int)

    /// 0 for forever, else the number of plays: the convention of `anim info`.
    public var number: Int {
        switch self {
        case .forever: return 0
        case .count(let n): return n
        }
    }
}
