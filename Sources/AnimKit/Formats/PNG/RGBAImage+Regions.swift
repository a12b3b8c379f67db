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

    /// True when every pixel of `r` has alpha 255.
    func isOpaque(in r: Rect, width: Int) -> Bool {
        for y in r.y..<(r.y + r.height) {
            var i = (y * width + r.x) * 4 + 3
            for _ in 0..<r.width {
                if pixels[i] != 255 { return false }
                i += 4
            }
        }
        return true
    }

    /// True when every pixel of `r` has R = G = B.
    func isGrey(in r: Rect, width: Int) -> Bool {
        pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.height) {
                for i in (y * width + r.x)..<(y * width + r.x + r.width) {
                    let p = px[i] & 0xFF_FFFF
                    if p != (p & 0xFF) * 0x01_0101 { return false }
                }
            }
            return true
        }
    }

    /// True when a pixel of `r` not fully transparent has the RGB colour
    /// `rgb` (R | G << 8 | B << 16).
    func contains(_ rgb: UInt32, in r: Rect, width: Int) -> Bool {
        pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.height) {
                for i in (y * width + r.x)..<(y * width + r.x + r.width) where px[i] & 0xFF_FFFF == rgb && px[i] >> 24 != 0 {
                    return true
                }
            }
            return false
        }
    }

    /// True when every pixel of `r` is opaque or fully transparent.
    func isBinaryAlpha(in r: Rect, width: Int) -> Bool {
        pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.height) {
                for i in (y * width + r.x)..<(y * width + r.x + r.width) where px[i] >> 24 != 0 && px[i] >> 24 != 0xFF {
                    return false
                }
            }
            return true
        }
    }
}
