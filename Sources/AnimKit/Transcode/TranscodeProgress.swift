/// What a transcode has done so far, as it goes.
public enum TranscodeProgress: Sendable {
    /// `written` of `of` frames added to the output being written.
    case frames(written: Int, of: Int)
    /// Step `step` (0-based) of `of` on the size ladder starts writing.
    case step(Int, of: Int)
    /// A step of the size ladder was written, to this size.
    case tried(SizeAttempt, of: Int)
}
