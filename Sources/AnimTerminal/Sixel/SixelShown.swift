/// The frame a `SixelBackend` last showed: its pixels as sent (one key
/// per pixel), where, and which frame of the animation it was.
struct SixelShown {
    /// The pixels, row by row; empty when nothing is known.
    var pixels: [UInt32] = []
    /// Where the frame was drawn (nil: nothing on screen).
    var placement: Placement?
    /// The animation frame it was.
    var index: Int?
}
