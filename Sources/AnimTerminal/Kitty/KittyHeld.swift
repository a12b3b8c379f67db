import AnimKit

/// What kitty holds of a `KittyBackend`'s image.
struct KittyHeld {
    /// The placement frames were last drawn at (nil: nothing on screen).
    var placement: Placement?
    /// Animation frame index → kitty frame number (1-based).
    var stored: [Int: Int] = [:]
    var count = 0
    /// The kitty frame on screen (0: none known).
    var current = 0
    /// The kitty frame whose pixels are known, and its pixels as sent.
    var knownFrame = 0
    var known: RGBAImage?
}
