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

/// The PNG colour chunks met while indexing (`APNGParser`).
struct PNGColorChunks: Equatable, Sendable {
    var sRGB = false
    var gamma: Double?
    var chromaticities: [Double]?

    /// Reads `gAMA`, `cHRM` or `sRGB` data; ignores a chunk of the wrong size
    /// or with a zero gamma, as libpng does.
    mutating func read(_ type: String, _ data: UnsafeRawBufferPointer) {
        func be32(_ i: Int) -> Double {
            Double(UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3]))
        }
        switch type {
        case "sRGB" where data.count == 1: sRGB = true
        case "gAMA" where data.count == 4 && be32(0) > 0: gamma = gamma ?? be32(0) / 100_000
        case "cHRM" where data.count == 32: chromaticities = chromaticities ?? (0..<8).map { be32($0 * 4) / 100_000 }
        default: break
        }
    }

    /// What the chunks say, with `icc` (an `iCCP` profile) first.
    func color(icc: [UInt8]?) -> EmbeddedColor? {
        if let icc { return .icc(icc) }
        if sRGB { return .sRGB }
        if let gamma { return .gamma(gamma, chromaticities: chromaticities) }
        return nil
    }
}
