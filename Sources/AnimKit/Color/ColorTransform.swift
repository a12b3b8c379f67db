import CLCMS

/// A conversion of 8-bit RGBA pixels to sRGB with Little CMS, made from
/// what a file says of its colours (`EmbeddedColor`), as browsers convert
/// to the display (taken here to be sRGB, as `ImageDecoder` and `<canvas>`
/// do by default).
///
/// `@unchecked Sendable`: the transform is made with `cmsFLAGS_NOCACHE`,
/// which makes `cmsDoTransform` reentrant (Little CMS's documentation), and
/// is never changed after `init`.
final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    /// What the pixels were converted from, for `anim info`.
    let source: String

    private init(handle: cmsHTRANSFORM, source: String) {
        self.handle = handle
        self.source = source
    }

    deinit { cmsDeleteTransform(handle) }

    /// The conversion `color` asks for: nil with no reason when there is
    /// nothing to do (no colour information, sRGB, a profile that maps
    /// every colour to within 1 of itself); nil with a reason when the
    /// information cannot be used (a damaged or non-RGB profile), which
    /// browsers then ignore too.
    static func toSRGB(from color: EmbeddedColor?) -> (transform: ColorTransform?, problem: String?) {
        guard let color, color != .sRGB else { return (nil, nil) }
        let profile: cmsHPROFILE
        let source: String
        switch color {
        case .sRGB: return (nil, nil)
        case .icc(let bytes):
            guard let p = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
                return (nil, "the ICC profile (\(bytes.count) bytes) is damaged and is ignored")
            }
            guard cmsGetColorSpace(p) == cmsSigRgbData else {
                cmsCloseProfile(p)
                return (nil, "the ICC profile is not an RGB profile and is ignored")
            }
            profile = p
            source = "ICC profile \(description(of: p).map { "\"\($0)\"" } ?? "(no description)")"
        case .gamma(let gamma, let chromaticities):
            guard let p = gammaProfile(gamma: gamma, chromaticities: chromaticities) else {
                return (nil, "the gAMA/cHRM chunks do not make a colour space and are ignored")
            }
            profile = p
            source = "PNG gAMA \(gamma)" + (chromaticities == nil ? "" : " and cHRM")
        }
        let sRGB = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(profile)
            cmsCloseProfile(sRGB)
        }
        guard
            let handle = cmsCreateTransform(
                profile, animTypeRGBA8, sRGB, animTypeRGBA8, cmsUInt32Number(INTENT_PERCEPTUAL), animTransformFlags)
        else { return (nil, "Little CMS cannot convert from the \(source) and it is ignored") }
        let transform = ColorTransform(handle: handle, source: source)
        return transform.isNearIdentity ? (nil, nil) : (transform, nil)
    }

    /// Converts `count` pixels from `source` into `target` (which may be `source`).
    func convert(_ source: UnsafeRawPointer, into target: UnsafeMutableRawPointer, count: Int) {
        var done = 0
        while done < count {  // (cmsDoTransform counts in 32 bits)
            let n = min(count - done, 1 << 24)
            cmsDoTransform(handle, source + done * 4, target + done * 4, UInt32(n))
            done += n
        }
    }

    /// Converts `rows` rows of `width` pixels, `stride` bytes apart, in place.
    func apply(_ base: UnsafeMutableRawPointer, width: Int, rows: Int, stride: Int) {
        guard width > 0 else { return }
        for y in 0..<rows {
            let row = base + y * stride
            cmsDoTransform(handle, row, row, UInt32(width))
        }
    }

    /// True when every colour of a 17×17×17 grid and every grey comes out
    /// within 1 of itself: an sRGB profile under another name.
    private var isNearIdentity: Bool {
        var probe: [UInt8] = []
        let steps = (0...16).map { min($0 * 16, 255) }
        for r in steps { for g in steps { for b in steps { probe += [UInt8(r), UInt8(g), UInt8(b), 255] } } }
        for v in 0...255 { probe += [UInt8(v), UInt8(v), UInt8(v), 255] }
        var out = probe
        out.withUnsafeMutableBytes { o in
            probe.withUnsafeBytes { cmsDoTransform(handle, $0.baseAddress, o.baseAddress, UInt32(probe.count / 4)) }
        }
        return zip(probe, out).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    /// An RGB profile of the sRGB primaries and D65 white (or `cHRM`'s)
    /// with the pure power curve `gAMA` gives (decoding exponent 1/gamma).
    private static func gammaProfile(gamma: Double, chromaticities c: [Double]?) -> cmsHPROFILE? {
        guard gamma > 0, gamma.isFinite, let curve = cmsBuildGamma(nil, 1 / gamma) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        let xy = c ?? [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
        guard xy.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }), stride(from: 1, to: 8, by: 2).allSatisfy({ xy[$0] > 0 })
        else { return nil }
        var white = cmsCIExyY(x: xy[0], y: xy[1], Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: xy[2], y: xy[3], Y: 1), Green: cmsCIExyY(x: xy[4], y: xy[5], Y: 1),
            Blue: cmsCIExyY(x: xy[6], y: xy[7], Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }
    }

    /// The profile's description tag, in English where it has several.
    private static func description(of profile: cmsHPROFILE) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        guard n > 1 else { return nil }
        return String(cString: buffer)
    }
}
