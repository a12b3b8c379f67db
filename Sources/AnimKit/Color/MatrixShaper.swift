import CColorKernel
import CLCMS

#if canImport(Glibc)
    import Glibc
#endif

/// The fast path of a conversion between two matrix-shaper RGB profiles
/// (Display P3, Adobe RGB, PNG's gAMA/cHRM, most camera and screen
/// profiles): per channel a tone curve to linear light, one 3×3 matrix to
/// sRGB's linear light, sRGB's curve back; as browsers' colour engines
/// (skcms, qcms) do it. Little CMS's own 8-bit path costs more than
/// decoding the frame; this one far less (`Tools/bench/color-cost.sh`
/// measures what colour management costs).
///
/// `ColorTransform` uses it only where it agrees with Little CMS within one
/// level on a grid of colours, so its pixels are Little CMS's within 1.
struct MatrixShaper: Sendable {
    /// Per channel, 8-bit value to linear light in `0...steps`: 3 × 256 entries.
    private let toLinear: [Int32]
    /// Row-major, scaled by 2^14: source linear RGB to sRGB linear RGB.
    private let matrix: [Int32]
    private static let steps = 16383
    /// Linear light in `0...steps` to 8-bit sRGB (IEC 61966-2-1's curve),
    /// and three bytes more (the vector loop reads four at an entry).
    private static let encode: [UInt8] =
        (0...steps).map { i in
            let v = Double(i) / Double(steps)
            let e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (e * 255).rounded())))
        } + [0, 0, 0]

    /// Nil when `profile` is not a matrix-shaper RGB profile.
    init?(profile: cmsHPROFILE) {
        guard cmsIsMatrixShaper(profile) != 0, let source = Self.colorants(profile) else { return nil }
        let sRGB = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(sRGB) }
        guard let sRGB, let target = Self.colorants(sRGB), let inverse = Self.inverse(target) else { return nil }
        // (A row's coefficients must sum to under 8 in magnitude, or the
        // fixed-point sums could overflow: 8 × 2^14 × 2^14 = 2^31.)
        let product = Self.product(inverse, source)
        guard (0..<3).allSatisfy({ r in (0..<3).reduce(0) { $0 + abs(product[r * 3 + $1]) } < 7.9 }) else { return nil }
        matrix = product.map { Int32(($0 * 16384).rounded()) }
        var linear: [Int32] = []
        linear.reserveCapacity(768)
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            let curve = OpaquePointer(raw)
            for v in 0..<256 {
                let l = Double(cmsEvalToneCurveFloat(curve, Float(v) / 255))
                linear.append(Int32((min(max(l, 0), 1) * Double(Self.steps)).rounded()))
            }
        }
        toLinear = linear
    }

    /// Converts `count` RGBA pixels from `source` into `target` (which may
    /// be `source`); alpha is kept. The pixel loops are C (`CColorKernel`:
    /// eight pixels at a time with AVX2 where there is, a run of one colour
    /// converted once).
    func convert(_ source: UnsafeRawPointer, into target: UnsafeMutableRawPointer, count: Int) {
        withTables {
            anim_shaper_convert($0, source.assumingMemoryBound(to: UInt8.self), target.assumingMemoryBound(to: UInt8.self), count)
        }
    }

    /// Converts only the pixels of `source` that differ from `shadow` (the
    /// values `target` was last converted from), and copies them into
    /// `shadow`: a frame whose changed rectangle is mostly unchanged pixels
    /// (blended over, transparent where nothing moved) costs a comparison
    /// for each of those.
    func convertChanged(
        _ source: UnsafeRawPointer, shadow: UnsafeMutableRawPointer, into target: UnsafeMutableRawPointer, count: Int
    ) {
        withTables {
            anim_shaper_convert_changed(
                $0, source.assumingMemoryBound(to: UInt8.self), shadow.assumingMemoryBound(to: UInt8.self),
                target.assumingMemoryBound(to: UInt8.self), count)
        }
    }

    private func withTables(_ body: (UnsafePointer<anim_shaper>) -> Void) {
        toLinear.withUnsafeBufferPointer { linear in
            matrix.withUnsafeBufferPointer { matrix in
                Self.encode.withUnsafeBufferPointer { encode in
                    var tables = anim_shaper(linear: linear.baseAddress, matrix: matrix.baseAddress, encode: encode.baseAddress)
                    body(&tables)
                }
            }
        }
    }

    /// The columns of the red, green and blue colorants (XYZ, D50): the
    /// matrix from linear RGB to XYZ, row-major.
    private static func colorants(_ profile: cmsHPROFILE) -> [Double]? {
        var columns: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            columns.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        let m = [
            columns[0].X, columns[1].X, columns[2].X,
            columns[0].Y, columns[1].Y, columns[2].Y,
            columns[0].Z, columns[1].Z, columns[2].Z,
        ]
        return m.allSatisfy(\.isFinite) ? m : nil
    }

    private static func inverse(_ m: [Double]) -> [Double]? {
        let det =
            m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard abs(det) > 1e-9 else { return nil }
        let c = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return c.map { $0 / det }
    }

    private static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { k in
            let (r, c) = (k / 3, k % 3)
            return a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c]
        }
    }
}
