/// The arithmetic of "over" blending. Both take non-premultiplied RGBA8.
enum BlendFormula: Sendable {
    /// Rounded integer form of the Porter-Duff "over" operator, which APNG
    /// and GIF use (GIF's alpha is only ever 0 or 255, so it reduces to
    /// copy or keep).
    case exact
    /// libwebp's `BlendPixelNonPremult` (src/demux/anim_decode.c), copied
    /// operation for operation so that frames are bit-exact with
    /// `WebPAnimDecoder`.
    case libwebp

    /// Blends `count` pixels of `src` over `dst`, in place in `dst`.
    @inline(__always)
    func blendRow(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int) {
        switch self {
        case .exact: Self.blend(ExactMix.self, src, dst, count)
        case .libwebp: Self.blend(WebPMix.self, src, dst, count)
        }
    }

    /// The row loop, specialised per mix: a generic, not a closure, so the
    /// optimiser keeps one loop per formula (a closure or two
    /// `@inline(never)` wrappers made it merge them, and the APNG blend got
    /// slower: `Tools/bench/ab.sh`).
    @inline(__always)
    private static func blend<Mix: BlendMix>(
        _: Mix.Type, _ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ count: Int
    ) {
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
                Mix.mix(src + i, dst + i, sa)
            }
            i += 4
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
}

/// One pixel of `src` (alpha `sa`, 1…254) over `dst`, in place.
private protocol BlendMix {
    static func mix(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ sa: UInt32)
}

private enum ExactMix: BlendMix {
    @inline(__always)
    static func mix(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ sa: UInt32) {
        let dw = UInt32(dst[3]) * (255 - sa)  // dst weight, scaled by 255
        let outA255 = sa * 255 + dw  // out alpha, scaled by 255
        let half = outA255 / 2
        for c in 0..<3 {
            dst[c] = UInt8(truncatingIfNeeded: (UInt32(src[c]) * sa * 255 + UInt32(dst[c]) * dw + half) / outA255)
        }
        dst[3] = UInt8(truncatingIfNeeded: (outA255 + 127) / 255)
    }
}

private enum WebPMix: BlendMix {
    @inline(__always)
    static func mix(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, _ sa: UInt32) {
        // dst_factor_a = (dst_a * (256 - src_a)) >> 8, held in a uint8_t.
        let dfa = (UInt32(dst[3]) * (256 - sa)) >> 8 & 0xFF
        let ba = (sa + dfa) & 0xFF
        let scale = (UInt32(1) << 24) / ba
        for c in 0..<3 {
            dst[c] = UInt8(truncatingIfNeeded: ((UInt32(src[c]) * sa + UInt32(dst[c]) * dfa) &* scale) >> 24)
        }
        dst[3] = UInt8(truncatingIfNeeded: ba)
    }
}
