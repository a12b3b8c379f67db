/// The direction frames are being played in, for eviction and decode-ahead.
public enum PlaybackDirection: Sendable {
    /// Frame numbers going up.
    case forward
    /// Frame numbers going down (`r` in the player).
    case backward
}
