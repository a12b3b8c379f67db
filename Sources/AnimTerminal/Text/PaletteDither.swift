/// Dithering for the 256-colour palette: each sub-pixel takes one of the two
/// palette levels around its colour (the palette's own, uneven ones), the upper
/// as often as the colour lies toward it in linear light. The threshold depends
/// on the sub-pixel's position only (unlike error diffusion): an area that does
/// not change keeps its pattern, does not shimmer and costs the renderer
/// nothing. It comes from blue noise (`noise`, the default) or an 8×8 Bayer
/// matrix (`ordered`).
public enum PaletteDither: String, CaseIterable, Sendable {
    /// The nearest palette colour (`XtermPalette.index`).
    case none
    /// Thresholds from an 8×8 Bayer matrix.
    case ordered
    /// Thresholds from a 32×32 blue-noise map (`BlueNoise`).
    case noise

    /// The threshold for the sub-pixel at (x, y), 0–255 (8 bits: the
    /// levels' fractions are compared in 1/256ths).
    @inline(__always)
    func threshold(x: Int, y: Int) -> Int {
        switch self {
        case .none: return 128
        case .ordered: return Self.bayer[(y & 7) << 3 | (x & 7)]
        case .noise: return Self.blueNoise[(y & 31) << 5 | (x & 31)]
        }
    }

    /// The palette colour shown for (r, g, b) at (x, y).
    @inline(__always)
    func color(_ r: UInt8, _ g: UInt8, _ b: UInt8, x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        guard self != .none else { return XtermPalette.rgb(XtermPalette.index(r, g, b)) }
        let t = threshold(x: x, y: y)
        let hi = max(r, g, b)
        let lo = min(r, g, b)
        if hi - lo <= Self.greyTolerance {
            let v = Self.greyStep[Int((Int(r) + Int(g) + Int(b) + 1) / 3)].pick(t)
            return (v, v, v)
        }
        return (Self.cubeStep[Int(r)].pick(t), Self.cubeStep[Int(g)].pick(t), Self.cubeStep[Int(b)].pick(t))
    }

    /// Colours whose channels differ by at most this are dithered along
    /// the greys (the cube would speckle them with colour).
    static let greyTolerance: UInt8 = 6

    /// A value between two levels: the lower, the upper, and how far toward
    /// the upper it lies in linear light, in 1/256ths (halfway between sRGB
    /// 0 and 95 is 67, not 48).
    struct Step {
        var low: UInt8, high: UInt8, fraction: Int

        /// The upper level when the fraction passes threshold `t`.
        @inline(__always) func pick(_ t: Int) -> UInt8 { fraction > t ? high : low }

        /// Steps for every value 0–255 between sorted `levels` (0 and 255
        /// included).
        static func table(_ levels: [Int]) -> [Step] {
            (0..<256).map { v in
                let upper = levels.firstIndex { $0 >= v } ?? levels.count - 1
                if levels[upper] == v { return Step(low: UInt8(v), high: UInt8(v), fraction: 0) }
                let (a, b) = (levels[upper - 1], levels[upper])
                let (la, lb) = (OKLab.linear(UInt8(a)), OKLab.linear(UInt8(b)))
                let f = (OKLab.linear(UInt8(v)) - la) / (lb - la)
                return Step(low: UInt8(a), high: UInt8(b), fraction: Int((f * 256).rounded()))
            }
        }
    }

    static let cubeStep = Step.table(XtermPalette.levels)
    static let greyStep = Step.table(
        Array(Set(XtermPalette.levels + (0..<24).map { 8 + 10 * $0 })).sorted())

    /// The 8×8 Bayer matrix scaled to 0–255: centred in each of 64 steps.
    static let bayer: [Int] = (0..<64).map { i in
        let (x, y) = (i & 7, i >> 3)
        let v = x ^ y
        var t = 0
        for bit in 0..<3 {
            t |= (v >> bit & 1) << (5 - 2 * bit)
            t |= (y >> bit & 1) << (4 - 2 * bit)
        }
        return t * 4 + 2
    }

    /// The blue-noise ranks scaled to 0–255.
    static let blueNoise: [Int] = BlueNoise.ranks.map { Int($0) / 4 }
}
