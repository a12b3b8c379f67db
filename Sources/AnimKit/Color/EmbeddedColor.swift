/// What a file says about the colour space of its pixels.
///
/// - an ICC profile: PNG `iCCP`, WebP `ICCP`, GIF `ICCRGBG1012`;
/// - PNG `sRGB`: the pixels are sRGB;
/// - PNG `gAMA`, with `cHRM` or without (then the sRGB primaries and D65
///   white are assumed), when there is neither `iCCP` nor `sRGB`.
///
/// PNG's order when several are present is the specification's: `iCCP`,
/// then `sRGB`, then `cHRM`/`gAMA`.
enum EmbeddedColor: Equatable, Sendable {
    case icc([UInt8])
    case sRGB
    /// `gamma`: the `gAMA` value (the encoding exponent, 1/2.2 ≈ 0.45455);
    /// `chromaticities`: `cHRM`'s white point and red, green and blue
    /// primaries as x, y pairs (8 values), when present.
    case gamma(Double, chromaticities: [Double]?)
}
