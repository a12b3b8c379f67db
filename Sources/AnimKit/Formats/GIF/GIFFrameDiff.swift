/// What the frame optimiser compares: pixel keys, one `UInt32` a pixel,
/// `0xFFRRGGBB` when opaque and 0 when transparent (alpha < 128: GIF's
/// alpha is one bit), and the rectangles a frame must cover.
///
/// The writer keeps a *reference* canvas of keys: for each pixel, the
/// source colour that the decoder's canvas shows a quantisation of (0 where
/// it shows transparency). A pixel whose new key equals its reference is
/// unchanged: the decoder keeps what it shows, so static areas are never
/// re-dithered and cannot shimmer.
enum GIFFrameDiff {
    /// The key of an RGBA pixel.
    @inline(__always)
    static func key(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        a < 128 ? 0 : 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    /// The key of an RGBA8 pixel read as a little-endian word.
    @inline(__always)
    static func key(word p: UInt32) -> UInt32 {
        p >> 24 < 128 ? 0 : 0xFF00_0000 | (p & 0xFF) << 16 | (p & 0xFF00) | (p >> 16 & 0xFF)
    }

    /// Writes the keys of `image` into `keys` (resized as needed).
    static func load(_ image: RGBAImage, into keys: inout [UInt32]) {
        let n = image.width * image.height
        if keys.count != n { keys = [UInt32](repeating: 0, count: n) }
        image.pixels.withUnsafeBufferPointer { px in
            keys.withUnsafeMutableBufferPointer { out in
                for i in 0..<n {
                    out[i] = key(px[4 * i], px[4 * i + 1], px[4 * i + 2], px[4 * i + 3])
                }
            }
        }
    }

    /// The bounding box of the pixels whose key differs from the
    /// reference, and how many there are.
    static func changes(_ keys: [UInt32], reference: [UInt32], width: Int, height: Int) -> (rect: Rect, count: Int) {
        keys.withUnsafeBufferPointer { k in
            reference.withUnsafeBufferPointer { ref in
                FrameDiff.bounds(width: width, height: height) { i in k[i] != ref[i] }
            }
        }
    }

    /// The bounding box of the pixels opaque in `keys` that `next` makes
    /// transparent: the area the frame must clear when it is disposed of,
    /// since a transparent index cannot erase a pixel.
    static func cleared(_ keys: [UInt32], next: RGBAImage) -> Rect {
        keys.withUnsafeBufferPointer { k in
            next.pixels.withUnsafeBufferPointer { px in
                FrameDiff.bounds(width: next.width, height: next.height) { i in k[i] != 0 && px[4 * i + 3] < 128 }.rect
            }
        }
    }
}
