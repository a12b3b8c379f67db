import AnimKit

/// A frame as the sixel backend compares it: one key a pixel, `0xFFRRGGBB`
/// on the percent grid (`SixelPercent`) as the terminal will show it after
/// `Background`, or 0 where the pixel is left transparent.
enum SixelFrame {
    /// Fills `keys` with those of `image`'s top-left `size`; true when a pixel is transparent.
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

    /// The bounding box of the keys that differ, and whether one turns
    /// transparent; nil when nothing changed.
    static func changes(_ next: [UInt32], _ shown: [UInt32], width: Int, height: Int) -> (rect: Rect, cleared: Bool)? {
        next.withUnsafeBufferPointer { a in
            shown.withUnsafeBufferPointer { b in
                guard let rect = FrameDiff.changedRect(a, b, width: width, height: height) else { return nil }
                var cleared = false
                for y in rect.y..<rect.y + rect.height where !cleared {
                    let row = y * width
                    for x in rect.x..<rect.x + rect.width where a[row + x] != b[row + x] && a[row + x] == 0 {
                        cleared = true
                        break
                    }
                }
                return (rect, cleared)
            }
        }
    }
}
