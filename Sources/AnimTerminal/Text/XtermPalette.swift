/// The xterm 256-colour palette: the 6×6×6 cube (16–231) and the grey ramp
/// (232–255); the 16 system colours vary by terminal and are not used.
///
/// A colour maps to the entry nearest in OKLab (`OKLab.distance2`), not
/// sRGB, which turns a light sky blue into a flat grey. The search over
/// the 240 entries is a table of every colour of 5 bits a channel (32768):
/// a lookup per pixel. The palette's own colours map to themselves exactly.
public enum XtermPalette {
    static let levels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The nearest palette index to an RGB colour, by OKLab difference.
    @inline(__always)
    public static func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let cr = cubeLevel[Int(r)]
        let cg = cubeLevel[Int(g)]
        let cb = cubeLevel[Int(b)]
        if cr | cg | cb >= 0 { return UInt8(16 + 36 * Int(cr) + 6 * Int(cg) + Int(cb)) }
        if r == g && g == b && r >= 8 && r <= 238 && (r - 8) % 10 == 0 { return 232 + (r - 8) / 10 }
        return table[Int(bucket[Int(r)]) << 10 | Int(bucket[Int(g)]) << 5 | Int(bucket[Int(b)])]
    }

    /// The nearest palette index by plain sRGB distance: what `index` did
    /// before OKLab (kept to measure against).
    static func rgbIndex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func cube(_ v: UInt8) -> Int {
            let v = Int(v)
            return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40
        }
        let (cr, cg, cb) = (cube(r), cube(g), cube(b))
        let cubeRGB = (levels[cr], levels[cg], levels[cb])
        let mean = (Int(r) + Int(g) + Int(b)) / 3
        let grey = mean > 238 ? 23 : max(0, (mean - 3) / 10)
        let greyValue = 8 + 10 * grey
        func dist(_ a: (Int, Int, Int)) -> Int {
            let dr = a.0 - Int(r)
            let dg = a.1 - Int(g)
            let db = a.2 - Int(b)
            return dr * dr + dg * dg + db * db
        }
        return dist((greyValue, greyValue, greyValue)) < dist(cubeRGB)
            ? UInt8(232 + grey) : UInt8(16 + 36 * cr + 6 * cg + cb)
    }

    /// The RGB of palette index `i` (16–255).
    public static func rgb(_ i: UInt8) -> (UInt8, UInt8, UInt8) {
        if i >= 232 {
            let v = UInt8(8 + 10 * (Int(i) - 232))
            return (v, v, v)
        }
        let c = Int(i) - 16
        return (UInt8(levels[c / 36]), UInt8(levels[c / 6 % 6]), UInt8(levels[c % 6]))
    }

    /// The colour as the terminal will show it in `mode`.
    @inline(__always)
    public static func shown(_ color: TerminalColor, mode: ColorMode) -> TerminalColor {
        guard mode == .palette256, case .rgb(let r, let g, let b) = color else { return color }
        let (pr, pg, pb) = rgb(index(r, g, b))
        return .rgb(pr, pg, pb)
    }

    /// A channel value's cube level (0–5), or -1 when it is not one.
    static let cubeLevel: [Int8] = (0..<256).map { v in Int8(levels.firstIndex(of: v) ?? -1) }

    /// A channel value rounded to the nearest of 32 levels spread over 0...255.
    static let bucket: [UInt8] = (0..<256).map { UInt8(($0 * 31 + 127) / 255) }

    /// The nearest palette index in OKLab for every 5-bit colour: the
    /// stored result of `searchTable()`.
    static let table: [UInt8] = decodedStoredTable()

    /// The nearest palette index in OKLab for every 5-bit colour, searched.
    static func searchTable() -> [UInt8] {
        let palette = (16...255).map { i -> OKLab in
            let (r, g, b) = rgb(UInt8(i))
            return OKLab(r, g, b)
        }
        let linear = (0..<32).map { OKLab.linear(UInt8(($0 * 255 + 15) / 31)) }
        var table = [UInt8](repeating: 0, count: 32768)
        palette.withUnsafeBufferPointer { p in
            for key in 0..<32768 {
                let c = OKLab(linear: linear[key >> 10], linear[key >> 5 & 31], linear[key & 31])
                var best = 0
                var bestDistance = Float.infinity
                for i in 0..<p.count {
                    let d = c.distance2(p[i])
                    if d < bestDistance {
                        bestDistance = d
                        best = i
                    }
                }
                table[key] = UInt8(16 + best)
            }
        }
        return table
    }
}
