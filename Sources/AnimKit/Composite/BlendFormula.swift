/// The arithmetic of "over" blending. Both take non-premultiplied RGBA8.
enum BlendFormula: Sendable {
    /// Rounded integer form of the Porter-Duff "over" operator, which APNG
    /// and GIF use (GIF's alpha is only ever 0 or 255, so it reduces to copy
    /// or keep).
    case exact
    /// libwebp's `BlendPixelNonPremult` (src/demux/anim_decode.c), copied
    /// operation for operation so that frames are bit-exact with
    /// `WebPAnimDecoder`.
    case libwebp

    /// Blends `count` pixels of `src` over `dst`, in place in `dst`.
    @inline(__always)
    func blendRow(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int) {
        switch self {
        case .exact: Self.blendExact(src, dst, count)
        case .libwebp: Self.blendWebP(src, dst, count)
        }
    }

    /// Two pixels at once where both are opaque (copied) or both
    /// transparent (kept), which is most of a blended frame; false when
    /// they need blending one by one.
    @inline(__always)
    private static func pairDone(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>) -> Bool {
        let pair = UnsafeRawPointer(src).loadUnaligned(as: UInt64.self)
        let alphas = pair & 0xFF00_0000_FF00_0000
        if alphas == 0xFF00_0000_FF00_0000 { UnsafeMutableRawPointer(dst).storeBytes(of: pair, as: UInt64.self) }
        return alphas == 0 || alphas == 0xFF00_0000_FF00_0000
    }

    // The two loops below share their shape but stay two: written as one
    // loop taking the mixing step as a closure (or with two `@inline(never)`
    // wrappers) the optimiser merged them into one function and the APNG
    // blend of Tools/bench's screen.png got slower (`Tools/bench/ab.sh`;
    // perf put a larger share of the time in the merged function than in
    // `blendExact`).
    static func blendExact(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int) {
        var i = 0
        while i < count * 4 {
            if i + 8 <= count * 4 && pairDone(src + i, dst + i) {
                i += 8
                continue
            }
            let sa = UInt32(src[i + 3])
            if sa == 255 {
                UnsafeMutableRawPointer(dst + i).storeBytes(
                    of: UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self), as: UInt32.self)
            } else if sa != 0 {
                let da = UInt32(dst[i + 3])
                let dw = da * (255 - sa)  // dst weight, scaled by 255
                let outA255 = sa * 255 + dw  // out alpha, scaled by 255
                let half = outA255 / 2
                for c in 0..<3 {
                    let v = (UInt32(src[i + c]) * sa * 255 + UInt32(dst[i + c]) * dw + half) / outA255
                    dst[i + c] = UInt8(truncatingIfNeeded: v)
                }
                dst[i + 3] = UInt8(truncatingIfNeeded: (outA255 + 127) / 255)
            }
            i += 4
        }
    }

    static func blendWebP(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int) {
        var i = 0
        while i < count * 4 {
            if i + 8 <= count * 4 && pairDone(src + i, dst + i) {
                i += 8
                continue
            }
            let sa = UInt32(src[i + 3])
            if sa == 255 {
                UnsafeMutableRawPointer(dst + i).storeBytes(
                    of: UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self), as: UInt32.self)
            } else if sa != 0 {
                // dst_factor_a = (dst_a * (256 - src_a)) >> 8, held in a uint8_t.
                let da = UInt32(dst[i + 3])
                let dfa = (da * (256 - sa)) >> 8 & 0xFF
                let ba = (sa + dfa) & 0xFF
                let scale = (UInt32(1) << 24) / ba
                for c in 0..<3 {
                    let unscaled = UInt32(src[i + c]) * sa + UInt32(dst[i + c]) * dfa
                    dst[i + c] = UInt8(truncatingIfNeeded: (unscaled &* scale) >> 24)
                }
                dst[i + 3] = UInt8(truncatingIfNeeded: ba)
            }
            i += 4
        }
    }
}
