/// A container format AnimKit reads, detected from the bytes.
public enum ImageFormat: String, Sendable {
    /// GIF87a or GIF89a.
    case gif
    /// A PNG without an animation control chunk: one frame.
    case png
    /// A PNG with `acTL`.
    case apng
    /// WebP, still or animated (`ANIM`/`ANMF`).
    case webp
}
