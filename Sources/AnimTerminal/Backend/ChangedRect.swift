import AnimKit

/// The smallest rectangle holding every pixel that differs between two
/// images of one size, or nil when they are the same.
enum ChangedRect {
    static func between(_ a: RGBAImage, _ b: RGBAImage) -> Rect? {
        precondition(a.width == b.width && a.height == b.height, "ChangedRect: sizes differ")
        let w = a.width
        let h = a.height
        return a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                let p = pa.bindMemory(to: UInt32.self)
                let q = pb.bindMemory(to: UInt32.self)
                var top = -1
                for y in 0..<h where top < 0 {
                    for x in 0..<w where p[y * w + x] != q[y * w + x] {
                        top = y
                        break
                    }
                }
                guard top >= 0 else { return nil }
                var bottom = top
                for y in stride(from: h - 1, to: top, by: -1) where bottom == top {
                    for x in 0..<w where p[y * w + x] != q[y * w + x] {
                        bottom = y
                        break
                    }
                }
                var left = w
                var right = -1
                for y in top...bottom {
                    let row = y * w
                    var x = 0
                    while x < left {
                        if p[row + x] != q[row + x] {
                            left = x
                            break
                        }
                        x += 1
                    }
                    x = w - 1
                    while x > right {
                        if p[row + x] != q[row + x] {
                            right = x
                            break
                        }
                        x -= 1
                    }
                }
                return Rect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
    }

    /// The pixels of `image` inside `rect`, as an image of the rect's size.
    static func crop(_ image: RGBAImage, _ rect: Rect) -> RGBAImage {
        if rect.x == 0 && rect.y == 0 && rect.width == image.width && rect.height == image.height { return image }
        var px = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        image.pixels.withUnsafeBufferPointer { src in
            px.withUnsafeMutableBufferPointer { dst in
                for y in 0..<rect.height {
                    let s = ((rect.y + y) * image.width + rect.x) * 4
                    for i in 0..<rect.width * 4 { dst[y * rect.width * 4 + i] = src[s + i] }
                }
            }
        }
        return RGBAImage(width: rect.width, height: rect.height, pixels: px)
    }
}
