#if canImport(Glibc)
    import Glibc
#endif

/// How closely one animation shows another: each reference frame against
/// the frame of `shown` on screen at that frame's start. What `anim
/// optimize` checks (no difference) and what `--lossy` reports (PSNR).
package struct ShownComparison: Sendable, Equatable {
    /// Frames compared: one per reference frame.
    package var frames = 0
    /// The first reference frame shown differently, if any.
    package var firstDifferent: Int?
    /// Mean over frames of the RGB PSNR (colours composited on black),
    /// identical frames counted as `ShownComparison.identical` dB.
    package var meanPSNR = ShownComparison.identical
    /// The lowest frame's PSNR.
    package var minPSNR = ShownComparison.identical
    /// The frame with the lowest PSNR.
    package var worstFrame = 0

    /// The PSNR an identical frame counts as, as benchmarks cap it.
    package static let identical = 99.0

    /// Compares `count` reference frames starting at `starts` (each frame's
    /// start time) with `shown`. Sizes that differ count as 0 dB. Frames of
    /// no duration (GIF images read as stored) are matched in order with
    /// `shown`'s frames of no duration at the same time, the rest with the
    /// frame on screen then.
    package static func compare(
        count: Int, starts: [Duration], reference: (Int) throws -> RGBAImage, shown: ImageSource
    ) throws -> ShownComparison {
        let ends = shown.frames.reduce(into: [Duration]()) { $0.append(($0.last ?? .zero) + $1.duration) }
        var result = ShownComparison()
        var sum = 0.0
        var rank = 0
        for i in 0..<count {
            rank = i > 0 && starts[i] == starts[i - 1] ? rank + 1 : 0
            let covering = ends.firstIndex { $0 > starts[i] } ?? max(shown.frameCount - 1, 0)
            // Frames of no duration just before `covering`, at this start.
            var zeros = 0
            while zeros < covering, ends[covering - zeros - 1] == starts[i],
                shown.frames[covering - zeros - 1].duration == .zero
            {
                zeros += 1
            }
            let j = rank < zeros ? covering - zeros + rank : covering
            let p = psnr(try reference(i), try shown.frame(at: j))
            if p < identical && result.firstDifferent == nil { result.firstDifferent = i }
            if p < result.minPSNR {
                result.minPSNR = p
                result.worstFrame = i
            }
            sum += p
            result.frames += 1
        }
        result.meanPSNR = count > 0 ? sum / Double(count) : identical
        return result
    }

    /// Compares every frame of `reference` with `shown` on `reference`'s
    /// timeline; `checked` hears of each reference frame read.
    package static func compare(
        _ reference: ImageSource, _ shown: ImageSource, checked: (Int) -> Void = { _ in }
    ) throws -> ShownComparison {
        var starts: [Duration] = []
        var t = Duration.zero
        for f in reference.frames {
            starts.append(t)
            t += f.duration
        }
        return try compare(
            count: reference.frameCount, starts: starts,
            reference: {
                checked($0 + 1)
                return try reference.frame(at: $0)
            }, shown: shown)
    }

    /// RGB PSNR of two frames composited on black; `identical` when they
    /// show the same (fully transparent pixels equal whatever their
    /// colour).
    static func psnr(_ x: RGBAImage, _ y: RGBAImage) -> Double {
        guard x.width == y.width, x.height == y.height else { return 0 }
        var squared = 0.0
        var same = true
        x.pixels.withUnsafeBufferPointer { a in
            y.pixels.withUnsafeBufferPointer { b in
                for p in stride(from: 0, to: a.count, by: 4) {
                    let (aa, ba) = (Int(a[p + 3]), Int(b[p + 3]))
                    if aa == 0 && ba == 0 { continue }
                    if a[p] == b[p] && a[p + 1] == b[p + 1] && a[p + 2] == b[p + 2] && aa == ba { continue }
                    same = false
                    for c in 0..<3 {
                        let d = Double(Int(a[p + c]) * aa - Int(b[p + c]) * ba) / 255
                        squared += d * d
                    }
                }
            }
        }
        if same { return identical }
        let mse = squared / Double(x.width * x.height * 3)
        return mse == 0 ? identical - 1 : min(identical - 1, 10 * log10(255 * 255 / mse))
    }
}
