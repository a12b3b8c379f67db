/// What happens to a frame's area once it has been shown, before the next
/// frame is drawn.
public enum DisposeOp: String, Sendable {
    /// Leave the canvas as it is.
    case none
    /// Clear the frame's rectangle to transparent black.
    case background
    /// Restore the frame's rectangle to what it was before the frame was drawn.
    case previous
}

/// How a frame's pixels are combined with the canvas under them.
public enum BlendOp: String, Sendable {
    /// Replace the canvas pixels, alpha included.
    case source
    /// Alpha-composite the frame over the canvas.
    case over
}

/// Metadata of one displayed frame, known after indexing, before any pixel
/// is decoded.
public struct FrameInfo: Equatable, Sendable {
    /// Position in the animation, from 0.
    public var index: Int
    /// The area the frame draws, in canvas pixels, clipped to the canvas.
    /// For a GIF frame made of several images, the union of their areas.
    public var rect: Rect
    /// The delay stored in the file.
    public var delay: Duration
    /// The delay to play, after the duration policy.
    public var duration: Duration
    /// What happens to the frame's area after it is shown.
    public var dispose: DisposeOp
    /// How the frame is combined with the canvas.
    public var blend: BlendOp
    /// True when the frame can be composited without any earlier frame, so
    /// seeking can start here.
    public var isKeyframe: Bool
    /// For GIF, the images (in file order) that draw this frame; one image
    /// per frame for the other formats.
    public var imageRange: Range<Int>
    /// False for a frame the file ends inside (a truncated GIF's last
    /// image): `frame(at:)` still draws what arrived, as browsers do, but
    /// the rest of the frame's area shows what was there before. Every
    /// other frame is complete.
    public var isComplete: Bool = true
}
