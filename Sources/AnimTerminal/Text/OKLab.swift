#if canImport(Glibc)
    import Glibc
#endif

/// A colour in Björn Ottosson's OKLab space, where distance follows how
/// different colours look far better than in sRGB.
struct OKLab: Equatable, Sendable {
    var l: Float, a: Float, b: Float

    /// The OKLab of an sRGB colour.
    init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.init(linear: Self.linear(r), Self.linear(g), Self.linear(b))
    }

    /// The OKLab of linear-light RGB in 0...1.
    init(linear r: Float, _ g: Float, _ b: Float) {
        let lms = (
            0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b,
            0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b,
            0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b
        )
        let (l1, m1, s1) = (cbrtf(lms.0), cbrtf(lms.1), cbrtf(lms.2))
        l = 0.2104542553 * l1 + 0.7936177850 * m1 - 0.0040720468 * s1
        a = 1.9779984951 * l1 - 2.4285922050 * m1 + 0.4505937099 * s1
        self.b = 0.0259040371 * l1 + 0.7827717662 * m1 - 0.8086757660 * s1
    }

    /// The squared difference to `o`, with the a and b axes counted twice
    /// (ΔEOK2, as colorjs.io names it): plain OKLab maps a light blue to a
    /// grey about as often as sRGB does; doubled, 256-colour mapping comes
    /// closer in CIEDE2000 than either (`PaletteTests.theSkyLooksRight`).
    @inline(__always)
    func distance2(_ o: OKLab) -> Float {
        let dl = l - o.l
        let da = a - o.a
        let db = b - o.b
        return dl * dl + 4 * (da * da + db * db)
    }

    /// sRGB's transfer function undone: a channel's light in 0...1.
    static func linear(_ v: UInt8) -> Float {
        let c = Float(v) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }
}
