/// Which frames a player plays, how many times, how fast and for how long.
public struct PlayTiming: Sendable {
    /// Plays; nil: the file's own count on a terminal, 1 otherwise.
    public var loops: Int?
    /// Playback speed: 2 plays twice as fast.
    public var speed: Double = 1
    /// Not a terminal: write frames as fast as possible.
    public var noWait = false
    /// Play only these frames (0-based, both ends in; a file, not a
    /// stream); nil: all of them.
    public var frames: ClosedRange<Int>?
    /// End the play after this long, whatever is left of it; nil: no limit.
    public var maxDuration: Duration?

    /// Every frame, the file's plays, at normal speed.
    public init() {}
}
