import AnimTestSupport
import Testing

@testable import AnimKit

/// The blend loops' fast paths (two opaque or two transparent pixels at
/// once) give what each formula gives pixel by pixel, written out here
/// from its definition: rows whose alpha runs mix 0, 255 and partial
/// values in every pairing, at odd lengths.
struct BlendFormulaTests {
    static func reference(_ formula: BlendFormula, _ s: [UInt8], _ d: [UInt8]) -> [UInt8] {
        let sa = UInt32(s[3])
        let da = UInt32(d[3])
        if sa == 255 { return s }
        if sa == 0 { return d }
        switch formula {
        case .exact:
            let dw = da * (255 - sa)
            let outA255 = sa * 255 + dw
            let rgb = (0..<3).map { UInt8((UInt32(s[$0]) * sa * 255 + UInt32(d[$0]) * dw + outA255 / 2) / outA255) }
            return rgb + [UInt8((outA255 + 127) / 255)]
        case .libwebp:
            let dfa = (da * (256 - sa)) >> 8 & 0xFF
            let ba = (sa + dfa) & 0xFF
            let scale = (UInt32(1) << 24) / ba
            let rgb = (0..<3).map { UInt8(truncatingIfNeeded: ((UInt32(s[$0]) * sa + UInt32(d[$0]) * dfa) &* scale) >> 24) }
            return rgb + [UInt8(ba)]
        }
    }

    @Test(arguments: [BlendFormula.exact, .libwebp])
    func fastPathsGiveEachPixelsBlend(_ formula: BlendFormula) {
        var rng = FuzzRandom(state: 0xB1E4D)
        let alphas: [UInt8] = [0, 255, 128, 1, 254]
        for count in [1, 2, 3, 7, 8, 33] {
            var src: [UInt8] = []
            var dst: [UInt8] = []
            for p in 0..<count {
                let v = rng.next()
                let pick = (p * 3 + Int(truncatingIfNeeded: v >> 40) % 3) % alphas.count
                let r = UInt8(truncatingIfNeeded: v)
                let g = UInt8(truncatingIfNeeded: v >> 8)
                let b = UInt8(truncatingIfNeeded: v >> 16)
                // Runs of opaque and of transparent pixels first (the pairs
                // taken at once), then the mixture.
                src += [r, g, b, p < 8 ? 255 : p < 16 ? 0 : alphas[pick]]
                let dr = UInt8(truncatingIfNeeded: v >> 24)
                let dg = UInt8(truncatingIfNeeded: v >> 32)
                let da: UInt8 = p % 3 == 0 ? 255 : 90
                dst += [dr, dg, 7, da]
            }
            var expected: [UInt8] = []
            for p in 0..<count {
                let range = (p * 4)..<(p * 4 + 4)
                expected += Self.reference(formula, Array(src[range]), Array(dst[range]))
            }
            src.withUnsafeBufferPointer { s in
                dst.withUnsafeMutableBufferPointer { formula.blendRow(s.baseAddress!, $0.baseAddress!, count) }
            }
            #expect(dst == expected, "\(formula) \(count) pixels")
        }
    }
}
