extension RGBAImage {
    /// A copy with `r` cleared to transparent black, as APNG's BACKGROUND
    /// disposal leaves the canvas.
    func clearing(_ r: Rect) -> RGBAImage {
        var copy = self
        copy.pixels.withUnsafeMutableBytes { raw in
            for y in r.y..<(r.y + r.height) {
                let start = (y * width + r.x) * 4
                raw.baseAddress!.advanced(by: start).initializeMemory(as: UInt8.self, repeating: 0, count: r.width * 4)
            }
        }
        return copy
    }

    /// True when `test` holds for every pixel of `r` (its RGBA bytes read
    /// as a little-endian word), tried row by row up to the first that fails.
    @inline(__always)
    @discardableResult
    func allPixels(in r: Rect, width: Int, _ test: (UInt32) -> Bool) -> Bool {
        pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.height) {
                for i in (y * width + r.x)..<(y * width + r.x + r.width) where !test(px[i]) { return false }
            }
            return true
        }
    }

    /// True when every pixel of `r` has alpha 255.
    func isOpaque(in r: Rect, width: Int) -> Bool { allPixels(in: r, width: width) { $0 >> 24 == 0xFF } }

    /// True when every pixel of `r` has R = G = B.
    func isGrey(in r: Rect, width: Int) -> Bool {
        allPixels(in: r, width: width) { $0 & 0xFF_FFFF == ($0 & 0xFF) * 0x01_0101 }
    }

    /// True when a pixel of `r` not fully transparent has the RGB colour
    /// `rgb` (R | G << 8 | B << 16).
    func contains(_ rgb: UInt32, in r: Rect, width: Int) -> Bool {
        !allPixels(in: r, width: width) { $0 & 0xFF_FFFF != rgb || $0 >> 24 == 0 }
    }

    /// True when every pixel of `r` is opaque or fully transparent.
    func isBinaryAlpha(in r: Rect, width: Int) -> Bool {
        allPixels(in: r, width: width) { $0 >> 24 == 0 || $0 >> 24 == 0xFF }
    }
}
