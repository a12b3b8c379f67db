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
    let source: ColorConversion
    /// The fast path, where it gives Little CMS's values within 1.
    private let fast: MatrixShaper?

    private init(handle: cmsHTRANSFORM, source: ColorConversion, fast: MatrixShaper?) {
        (self.handle, self.source, self.fast) = (handle, source, fast)
    }

    deinit { cmsDeleteTransform(handle) }

    /// The conversion `color` asks for: nil with no reason when there is
    /// nothing to do (no colour information, sRGB, a profile that maps
    /// every colour to within 1 of itself); nil with a reason when the
    /// information cannot be used (a damaged or non-RGB profile), which
    /// browsers then ignore too. `fastPath` false keeps to Little CMS (for
    /// tests).
    ///
    /// The last few answers are kept: making one costs Little CMS's set-up
    /// and a probe of some 6000 colours (about a millisecond), which a
    /// program opening many files with one profile, or one file again and
    /// again (`reopened()`, `anim bench`), would otherwise pay each time.
    static func toSRGB(
        from color: EmbeddedColor?, fastPath: Bool = true
    ) -> (transform: ColorTransform?, problem: ColorProblem?) {
        guard let color, color != .sRGB else { return (nil, nil) }
        if let hit = recent.withLock({ $0.first { $0.color == color && $0.fastPath == fastPath } }) {
            return (hit.transform, hit.problem)
        }
        let made = make(from: color, fastPath: fastPath)
        recent.withLock {
            if $0.count >= 8 { $0.removeFirst() }
            $0.append((color, fastPath, made.transform, made.problem))
        }
        return made
    }

    /// The answers `toSRGB` gave last, oldest first.
    private static let recent = Locked<
        [(color: EmbeddedColor, fastPath: Bool, transform: ColorTransform?, problem: ColorProblem?)]
    >([])

    private static func make(from color: EmbeddedColor, fastPath: Bool) -> (transform: ColorTransform?, problem: ColorProblem?) {
        let profile: cmsHPROFILE
        let source: ColorConversion
        switch color {
        case .sRGB: return (nil, nil)
        case .icc(let bytes):
            guard let p = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
                return (nil, .damagedProfile(bytes: bytes.count))
            }
            guard cmsGetColorSpace(p) == cmsSigRgbData else {
                cmsCloseProfile(p)
                return (nil, .notRGBProfile)
            }
            profile = p
            source = .iccProfile(description: description(of: p))
        case .gamma(let gamma, let chromaticities):
            guard let p = gammaProfile(gamma: gamma, chromaticities: chromaticities) else {
                return (nil, .unusableGamma)
            }
            profile = p
            source = .gamma(gamma, chromaticities: chromaticities != nil)
        }
        let sRGB = cmsCreate_sRGBProfile()
        defer {
            cmsCloseProfile(profile)
            cmsCloseProfile(sRGB)
        }
        guard
            let handle = cmsCreateTransform(
                profile, animTypeRGBA8, sRGB, animTypeRGBA8, cmsUInt32Number(INTENT_PERCEPTUAL), animTransformFlags)
        else { return (nil, .cannotConvert(from: source)) }
        let reference = probed { cmsDoTransform(handle, $0, $1, UInt32($2)) }
        // An sRGB profile under another name: nothing to do.
        guard !withinOne(probe, reference) else {
            cmsDeleteTransform(handle)
            return (nil, nil)
        }
        let fast = fastPath ? MatrixShaper(profile: profile).flatMap { withinOne(probed($0.convert), reference) ? $0 : nil } : nil
        return (ColorTransform(handle: handle, source: source, fast: fast), nil)
    }

    /// Converts `count` pixels from `source` into `target` (which may be `source`).
    func convert(_ source: UnsafeRawPointer, into target: UnsafeMutableRawPointer, count: Int) {
        if let fast { return fast.convert(source, into: target, count: count) }
        convertWithLittleCMS(source, into: target, count: count)
    }

    /// Converts the pixels of `source` that differ from `shadow` (what
    /// `target` holds the conversion of) and copies them into `shadow`.
    func convertChanged(
        _ source: UnsafeRawPointer, shadow: UnsafeMutableRawPointer, into target: UnsafeMutableRawPointer, count: Int
    ) {
        if let fast { return fast.convertChanged(source, shadow: shadow, into: target, count: count) }
        var i = 0
        while i < count {
            let word = { (p: UnsafeRawPointer, k: Int) in p.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self) }
            guard word(source, i) != word(shadow, i) else {
                i += 1
                continue
            }
            var end = i + 1
            while end < count && word(source, end) != word(shadow, end) { end += 1 }
            (shadow + i * 4).copyMemory(from: source + i * 4, byteCount: (end - i) * 4)
            convertWithLittleCMS(source + i * 4, into: target + i * 4, count: end - i)
            i = end
        }
    }

    /// Whether the matrix-shaper fast path is in use (for tests).
    var usesFastPath: Bool { fast != nil }

    /// `convert` through Little CMS itself, whatever the fast path.
    func convertWithLittleCMS(_ source: UnsafeRawPointer, into target: UnsafeMutableRawPointer, count: Int) {
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
            convert(row, into: row, count: width)
        }
    }

    /// Every colour of a 17×17×17 grid (steps of 16, and 255), a finer one
    /// near black, and every grey: RGBA pixels.
    private static let probe: [UInt8] = {
        var probe: [UInt8] = []
        let steps = (0...16).map { min($0 * 16, 255) }
        for r in steps { for g in steps { for b in steps { probe += [UInt8(r), UInt8(g), UInt8(b), 255] } } }
        for r in 0..<8 { for g in 0..<8 { for b in 0..<8 { probe += [UInt8(r * 2), UInt8(g * 2), UInt8(b * 2), 255] } } }
        for v in 0...255 { probe += [UInt8(v), UInt8(v), UInt8(v), 255] }
        return probe
    }()

    /// The probe converted by `convert` (source, target, pixel count).
    private static func probed(_ convert: (UnsafeRawPointer, UnsafeMutableRawPointer, Int) -> Void) -> [UInt8] {
        var out = probe
        out.withUnsafeMutableBytes { o in probe.withUnsafeBytes { convert($0.baseAddress!, o.baseAddress!, probe.count / 4) } }
        return out
    }

    /// True when every value of `a` is within 1 of `b`'s.
    private static func withinOne(_ a: [UInt8], _ b: [UInt8]) -> Bool { zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 } }

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
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: text, as: UTF8.self)
    }
}
