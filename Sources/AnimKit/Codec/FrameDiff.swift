#if canImport(Glibc)
    import Glibc
#endif

/// Where two frames of one size differ: the one scan that every writer
/// (GIF, APNG) and the terminal backends (kitty, iTerm2, sixel) use to send
/// only what changed.
public enum FrameDiff {
    /// The smallest rectangle holding every position where `a` and `b`
    /// differ, for two `width`×`height` grids of 32-bit values (RGBA
    /// pixels, or keys derived from them); nil when they are equal. The
    /// scan stops at the first changed row from the top and from the
    /// bottom, and then looks only outside the columns already found.
    /// Buffers shorter than `width * height` are a programmer error (a
    /// precondition).
    public static func changedRect(
        _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>, width: Int, height: Int
    ) -> Rect? {
        precondition(a.count >= width * height && b.count >= width * height, "FrameDiff: buffers too small")
        let w = width
        func differs(_ y: Int) -> Bool { memcmp(a.baseAddress! + y * w, b.baseAddress! + y * w, w * 4) != 0 }
        guard w > 0, let top = (0..<height).first(where: differs) else { return nil }
        let bottom = (top..<height).last(where: differs)!
        var left = w
        var right = -1
        for y in top...bottom {
            let row = y * w
            var x = 0
            while x < left {
                if a[row + x] != b[row + x] {
                    left = x
                    break
                }
                x += 1
            }
            x = w - 1
            while x > right {
                if a[row + x] != b[row + x] {
                    right = x
                    break
                }
                x -= 1
            }
        }
        return Rect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// The smallest rectangle holding every pixel that differs (in any
    /// channel) between two images of one size; nil when they are equal.
    /// Images of different sizes are a programmer error (a precondition).
    public static func changedRect(_ a: RGBAImage, _ b: RGBAImage) -> Rect? {
        precondition(a.width == b.width && a.height == b.height, "FrameDiff: sizes differ")
        return a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                changedRect(
                    pa.bindMemory(to: UInt32.self), pb.bindMemory(to: UInt32.self), width: a.width, height: a.height)
            }
        }
    }

    /// The bounding box of the positions `marked` says yes to, in a
    /// `width`×`height` grid, and how many there are (every position is
    /// asked once).
    @inline(__always)
    static func bounds(width: Int, height: Int, _ marked: (Int) -> Bool) -> (rect: Rect, count: Int) {
        var x0 = width
        var x1 = -1
        var y0 = height
        var y1 = -1
        var count = 0
        for y in 0..<height {
            let row = y * width
            var first = -1
            var last = -1
            for x in 0..<width where marked(row + x) {
                if first < 0 { first = x }
                last = x
                count += 1
            }
            if first >= 0 {
                x0 = min(x0, first)
                x1 = max(x1, last)
                y0 = min(y0, y)
                y1 = y
            }
        }
        if x1 < 0 { return (Rect(x: 0, y: 0, width: 0, height: 0), 0) }
        return (Rect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1), count)
    }
}

extension RGBAImage {
    /// The pixels inside `rect`, as an image of the rectangle's size; the
    /// image itself when `rect` covers it. A rectangle outside the image is
    /// a programmer error (a precondition).
    public func cropped(to rect: Rect) -> RGBAImage {
        precondition(
            rect.x >= 0 && rect.y >= 0 && rect.width >= 0 && rect.height >= 0 && rect.x + rect.width <= width
                && rect.y + rect.height <= height, "RGBAImage.cropped: rectangle outside the image")
        if rect.x == 0 && rect.y == 0 && rect.width == width && rect.height == height { return self }
        let rowBytes = rect.width * 4
        let px = [UInt8](unsafeUninitializedCapacity: rowBytes * rect.height) { out, initialized in
            pixels.withUnsafeBytes { src in
                for y in 0..<rect.height {
                    let s = ((rect.y + y) * width + rect.x) * 4
                    UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[y * rowBytes..<(y + 1) * rowBytes]))
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[s..<s + rowBytes]))
                }
            }
            initialized = rowBytes * rect.height
        }
        return RGBAImage(width: rect.width, height: rect.height, trusting: px)
    }
}
