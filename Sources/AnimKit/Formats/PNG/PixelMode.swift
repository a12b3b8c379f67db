/// How an APNG stores its pixels; the raw value is PNG's colour type.
enum PixelMode: UInt8 {
    case grey = 0
    case rgb = 2
    case palette = 3
    case greyAlpha = 4
    case rgba = 6

    var channels: Int {
        switch self {
        case .palette, .grey: 1
        case .greyAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// No alpha channel: a transparent pixel only through a `tRNS` key.
    var opaqueOnly: Bool { self == .grey || self == .rgb }

    /// The most compact mode for frames that are all grey or not, fit a
    /// palette or not, and are `keyed` or not: opaque, or with no alpha but
    /// 0 and 255 and a colour left for a `tRNS` key (as APNG Assembler
    /// writes a GIF's frames: RGB, a quarter smaller than RGBA). Keyed grey
    /// goes without a palette (no PLTE to carry); other grey takes one if
    /// it fits.
    static func widest(grey: Bool, keyed: Bool, palette: Bool) -> PixelMode {
        if grey && keyed { return .grey }
        if palette { return .palette }
        if grey { return .greyAlpha }
        return keyed ? .rgb : .rgba
    }
}
