import AnimKit

/// A frame as the sixel backend compares it: one key a pixel, `0xFFRRGGBB`
/// on the percent grid (`SixelPercent`) as the terminal will show it after
/// `Background`, or 0 where the pixel is left transparent.
enum SixelFrame {
    /// Fills `keys` (resized as needed) with the keys of the top-left
    /// `size` of `image`; true when some pixel is transparent.
    static func load(_ image: RGBAImage, size: PixelSize, background: Background, into keys: inout [UInt32]) -> Bool {
        let n = size.width * size.height
        if keys.count != n { keys = [UInt32](repeating: 0, count: n) }
        var transparent = false
        image.pixels.withUnsafeBufferPointer { px in
            SixelPercent.level.withUnsafeBufferPointer { levels in
                keys.withUnsafeMutableBufferPointer { out in
                    for y in 0..<size.height {
                        var i = y * image.width * 4
                        var o = y * size.width
                        for x in 0..<size.width {
                            let r = px[i]
                            let g = px[i + 1]
                            let b = px[i + 2]
                            let a = px[i + 3]
                            if a == 255 {
                                out[o] = SixelPercent.key(r, g, b, levels: levels)
                            } else if case .rgb(let cr, let cg, let cb) = background.compose(r, g, b, a, x: x, y: y) {
                                out[o] = SixelPercent.key(cr, cg, cb, levels: levels)
                            } else {
                                out[o] = 0
                                transparent = true
                            }
                            i += 4
                            o += 1
                        }
                    }
                }
            }
        }
        return transparent
    }

    /// The bounding box of the pixels whose key differs between `next`
    /// and `shown` (both `width` × `height`), and whether one of them turns
    /// transparent; nil when nothing changed.
    static func changes(_ next: [UInt32], _ shown: [UInt32], width: Int, height: Int) -> (rect: Rect, cleared: Bool)? {
        next.withUnsafeBufferPointer { a in
            shown.withUnsafeBufferPointer { b in
                var x0 = width
                var y0 = height
                var x1 = -1
                var y1 = -1
                var cleared = false
                for y in 0..<height {
                    let row = y * width
                    var first = -1
                    var last = -1
                    for x in 0..<width where a[row + x] != b[row + x] {
                        if first < 0 { first = x }
                        last = x
                        if a[row + x] == 0 { cleared = true }
                    }
                    guard first >= 0 else { continue }
                    x0 = min(x0, first)
                    x1 = max(x1, last)
                    if y0 == height { y0 = y }
                    y1 = y
                }
                guard x1 >= 0 else { return nil }
                return (Rect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1), cleared)
            }
        }
    }
}
