import AnimKit

extension Background {
    /// `image` as graphics protocols should get it: unchanged for `.none`,
    /// else composed over the colour or checkerboard.
    func flattened(_ image: RGBAImage) -> RGBAImage {
        guard self != .none else { return image }
        // An opaque frame (the usual case) is returned as it is, not copied.
        if image.isOpaque { return image }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { px in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let i = (y * image.width + x) * 4
                    guard px[i + 3] != 255 else { continue }
                    if case .rgb(let r, let g, let b) = compose(px[i], px[i + 1], px[i + 2], px[i + 3], x: x, y: y) {
                        px[i] = r
                        px[i + 1] = g
                        px[i + 2] = b
                        px[i + 3] = 255
                    }
                }
            }
        }
        return out
    }
}
