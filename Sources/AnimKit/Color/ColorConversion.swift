/// What an image's frames are converted to sRGB from
/// (``ImageSource/colorConversion``).
public enum ColorConversion: Hashable, Sendable, CustomStringConvertible {
    /// An embedded ICC profile, with its description when it has one.
    case iccProfile(description: String?)
    /// PNG's gamma (`gAMA`), with chromaticities (`cHRM`) or without.
    case gamma(Double, chromaticities: Bool)

    /// What the frames are converted from, in words.
    public var description: String {
        switch self {
        case .iccProfile(let text): return "ICC profile \(text.map { "\"\($0)\"" } ?? "(no description)")"
        case .gamma(let gamma, let chromaticities): return "PNG gAMA \(gamma)" + (chromaticities ? " and cHRM" : "")
        }
    }
}

/// A colour description that cannot be used: the frames are shown as sRGB,
/// and the source lists it among its warnings.
public enum ColorProblem: AnimProblem {
    /// The ICC profile (of `bytes` bytes) cannot be read.
    case damagedProfile(bytes: Int)
    /// The ICC profile is not of an RGB colour space.
    case notRGBProfile
    /// The gamma and chromaticities make no colour space.
    case unusableGamma
    /// Little CMS cannot make a transform from this source.
    case cannotConvert(from: ColorConversion)

    /// Which kind of problem this is.
    public var code: AnimError.Code { .malformed }

    /// The problem in words, as messages give it.
    public var description: String {
        switch self {
        case .damagedProfile(let bytes): return "the ICC profile (\(bytes) bytes) is damaged and is ignored"
        case .notRGBProfile: return "the ICC profile is not an RGB profile and is ignored"
        case .unusableGamma: return "the gAMA/cHRM chunks do not make a colour space and are ignored"
        case .cannotConvert(let source): return "Little CMS cannot convert from the \(source) and it is ignored"
        }
    }
}
