/// A container format AnimKit reads, detected from the bytes.
public enum ImageFormat: String, Sendable {
    case gif
    /// A PNG without an animation control chunk: one frame.
    case png
    /// A PNG with `acTL`.
    case apng
    case webp

}
