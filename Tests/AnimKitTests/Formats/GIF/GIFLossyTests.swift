import AnimTestSupport
import Testing

@testable import AnimKit

/// `EncodingOptions.lossy`: gifsicle's lossy LZW. Smaller files, within a
/// stated PSNR of the frames; transparency kept exactly.
struct GIFLossyTests {
    /// Opaque 96×64 frames: smooth gradients with a little noise, a few
    /// hundred colours each (so the lossless GIF is already dithered).
    static func gradients(_ count: Int) -> [RGBAImage] {
        var seed: UInt32 = 1
        return (0..<count).map { f in
            RGBAImage.drawn(width: 96, height: 64) { x, y in
                seed = seed &* 1_103_515_245 &+ 12345
                let n = Int(seed >> 29)  // 0-7
                return (UInt8(min(255, x * 2 + f * 8 + n)), UInt8(min(255, y * 3 + n)), UInt8(min(255, (x + y) + 40)), 255)
            }
        }
    }

    static func encode(_ frames: [RGBAImage], lossy: Int) throws -> [UInt8] {
        var o = EncodingOptions()
        o.lossy = lossy
        return try ImageDestination.encode(frames, as: .gif, options: o, duration: .milliseconds(100))
    }

    static func quality(_ frames: [RGBAImage], _ data: [UInt8]) throws -> ShownComparison {
        let back = try ImageSource(data: data)
        return try ShownComparison.compare(
            count: frames.count, starts: (0..<frames.count).map { .milliseconds(100 * $0) }, reference: { frames[$0] },
            shown: back)
    }

    @Test func lossy80IsSmallerWithinItsQuality() throws {
        let frames = Self.gradients(4)
        let exact = try Self.encode(frames, lossy: 0)
        let lossy = try Self.encode(frames, lossy: 80)
        let q0 = try Self.quality(frames, exact)
        let q = try Self.quality(frames, lossy)
        #expect(lossy.count * 10 < exact.count * 8, "\(lossy.count) bytes against \(exact.count) lossless")
        #expect(q.meanPSNR >= 30 && q.meanPSNR <= q0.meanPSNR, "PSNR \(q.meanPSNR) (lossless \(q0.meanPSNR))")
        let more = try Self.encode(frames, lossy: 200)
        let qMore = try Self.quality(frames, more)
        #expect(more.count < lossy.count && qMore.meanPSNR < q.meanPSNR, "\(more.count) bytes, \(qMore.meanPSNR) dB")
    }

    @Test func transparentPixelsStayTransparentAndOpaqueOnesOpaque() throws {
        var frames = Self.gradients(3)
        for f in frames.indices {
            for y in 0..<64 {
                for x in 0..<96 where (x / 8 + y / 8 + f) % 3 == 0 { frames[f].pixels[(y * 96 + x) * 4 + 3] = 0 }
            }
        }
        let back = try ImageSource(data: try Self.encode(frames, lossy: 120))
        for f in frames.indices {
            let got = try back.frame(at: f)
            for p in stride(from: 3, to: got.pixels.count, by: 4) where (got.pixels[p] == 0) != (frames[f].pixels[p] == 0) {
                Issue.record("frame \(f) pixel \(p / 4): alpha \(got.pixels[p]) for \(frames[f].pixels[p])")
                return
            }
        }
    }

    /// The lossy parse makes the indices code in fewer bytes, changing
    /// pixels only to near colours.
    @Test func theParseTakesNearColoursAndCodesInFewerBytes() {
        // A palette of greys one level apart and a noisy ramp over it.
        let colors = (0..<64).map { UInt32(0xFF00_0000) | UInt32($0 * 4) * 0x01_0101 }
        var seed: UInt32 = 3
        var indices = (0..<4000).map { i -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(min(63, (i / 64) + Int(seed >> 30)))
        }
        let original = indices
        let exactSize = indices.withUnsafeBufferPointer { GIFLZWEncoder.size($0, bitsPerPixel: 6) }
        let changed = indices.withUnsafeMutableBufferPointer {
            GIFLossyLZW.apply($0, colors: colors, transparent: nil, bitsPerPixel: 6, loss: 60)
        }
        let lossySize = indices.withUnsafeBufferPointer { GIFLZWEncoder.size($0, bitsPerPixel: 6) }
        #expect(changed > 400, "\(changed) pixels changed")
        #expect(lossySize * 10 < exactSize * 8, "\(lossySize) against \(exactSize)")
        // Each channel's error with the dither carried is at most √(600/3)
        // ≈ 14.1 levels, and the dither at most 14.1 plus a quarter of the
        // one before, so below 18.8: no pixel moves by more than 32 levels
        // (8 indices here).
        let moves = indices.indices.map { abs(Int(indices[$0]) - Int(original[$0])) }
        #expect(moves.max()! <= 8)
        #expect(Double(moves.reduce(0, +)) / Double(changed) < 2.5, "mean move of a changed pixel")
    }

    /// Unchanged pixels scattered through changed ones (the frame's noise
    /// over a still one): told what each stands for (`shown`), the parse
    /// may give them a near colour instead of the transparent index, and
    /// the strings run on; a changed pixel never becomes transparent.
    @Test func unchangedPixelsMayTakeNearColours() {
        let colors = (0..<64).map { UInt32(0xFF00_0000) | UInt32($0 * 4) * 0x01_0101 }
        let clear: UInt8 = 64
        var seed: UInt32 = 11
        var shown = [UInt32](repeating: 0, count: 4096)
        let indices = (0..<4096).map { i -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            let level = min(63, i / 64 + Int(seed >> 30))
            if seed >> 29 & 1 == 0 { return UInt8(level) }
            shown[i] = colors[level]  // unchanged: on screen already
            return clear
        }
        let original = indices
        func lossy(_ shown: [UInt32]?) -> (indices: [UInt8], bytes: Int) {
            var copy = original
            copy.withUnsafeMutableBufferPointer {
                _ = GIFLossyLZW.apply($0, colors: colors, transparent: Int(clear), bitsPerPixel: 7, loss: 60, shown: shown)
            }
            return (copy, copy.withUnsafeBufferPointer { GIFLZWEncoder.size($0, bitsPerPixel: 7) })
        }
        let plain = lossy(nil)
        let told = lossy(shown)
        #expect(told.bytes * 100 < plain.bytes * 85, "\(told.bytes) against \(plain.bytes) bytes")
        #expect(plain.indices.indices.allSatisfy { (original[$0] == clear) == (plain.indices[$0] == clear) })
        var recoloured = 0
        for i in 0..<4096 {
            if original[i] != clear {
                #expect(told.indices[i] != clear, "changed pixel \(i) made transparent")
            } else if told.indices[i] != clear {
                recoloured += 1
                let level = Int(shown[i] & 0xFF) / 4
                #expect(abs(Int(told.indices[i]) - level) <= 8, "pixel \(i)")
            }
        }
        #expect(recoloured > 500, "\(recoloured) unchanged pixels recoloured")
    }
}
