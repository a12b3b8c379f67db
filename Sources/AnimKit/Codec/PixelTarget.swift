/// Where a codec writes a step's pixels: the canvas itself or a patch.
struct PixelTarget {
    var base: UnsafeMutableRawPointer
    /// Bytes from one row to the next.
    var stride: Int
    /// When true, transparent pixels must be left as they are (only codecs
    /// with `writesMasked` get such a target). When false, every pixel of the
    /// rect is written; pixels the data does not reach get alpha 0.
    var masked: Bool
}
