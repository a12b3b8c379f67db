import CColorKernel

#if canImport(Glibc)
    import Glibc
#endif

/// A resampler that runs over RGBA8 pixels: `Downsampler` (box) or
/// `LanczosResampler`.
public protocol PixelResampler: Sendable {
    /// Resamples `source` (`sourceWidth * sourceHeight * 4` bytes) into
    /// `output` (`width * height * 4` bytes). Shorter buffers are a
    /// programmer error (a precondition).
    func run(_ source: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
}

extension Downsampler: PixelResampler {}

/// Resizes RGBA8 images with the three-lobe Lanczos filter as Pillow's
/// `Image.LANCZOS` does: separable, coefficients as `precompute_coeffs`
/// (the kernel widened by the scale when shrinking; normalised to sum 1),
/// in premultiplied alpha (transparent pixels do not tint edges) and float,
/// the pixel loops in C (SSE). Sharper than the box filter when shrinking
/// by small factors; interpolates when enlarging. Overshoot at hard edges
/// is clamped.
///
/// Immutable: `run` takes its scratch memory per call.
public final class LanczosResampler: PixelResampler {
    /// Source width in pixels.
    public let sourceWidth: Int
    /// Source height in pixels.
    public let sourceHeight: Int
    /// Output width in pixels (at least 1).
    public let width: Int
    /// Output height in pixels (at least 1).
    public let height: Int
    private let columns: Axis
    private let rows: Axis

    struct Axis {
        var start: [Int32]
        var weights: [Float]
        var taps: Int
    }

    /// The largest shrink along an axis (the C loops take at most 1023
    /// taps; `FrameReshaper` uses the box filter past it).
    public static let maxShrink = 100

    /// A resampler from `sourceWidth`×`sourceHeight` to `width`×`height`,
    /// shrinking each axis at most `maxShrink` times. An empty source, or a
    /// larger shrink, is a programmer error (a precondition).
    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "LanczosResampler: empty source")
        precondition(
            sourceWidth <= max(width, 1) * Self.maxShrink && sourceHeight <= max(height, 1) * Self.maxShrink,
            "LanczosResampler: shrinks more than maxShrink")
        (self.sourceWidth, self.sourceHeight) = (sourceWidth, sourceHeight)
        (self.width, self.height) = (max(width, 1), max(height, 1))
        columns = Self.axis(from: sourceWidth, to: self.width)
        rows = Self.axis(from: sourceHeight, to: self.height)
    }

    static func lanczos(_ x: Double) -> Double {
        func sinc(_ v: Double) -> Double { v == 0 ? 1 : sin(Double.pi * v) / (Double.pi * v) }
        return x > -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0
    }

    /// Pillow's `precompute_coeffs` for a filter of support 3.
    static func axis(from source: Int, to target: Int) -> Axis {
        let taps = Int((3 * max(Double(source) / Double(target), 1)).rounded(.up)) * 2 + 1
        var start = [Int32](repeating: 0, count: target)
        var weights = [Float](repeating: 0, count: target * taps)
        for (i, (lo, w)) in Downsampler.windows(from: source, to: target, support: 3, lanczos).enumerated() {
            let total = w.reduce(0, +)
            start[i] = Int32(min(lo, source - 1))
            for k in 0..<min(w.count, taps) { weights[i * taps + k] = Float(total != 0 ? w[k] / total : (k == 0 ? 1 : 0)) }
        }
        return Axis(start: start, weights: weights, taps: taps)
    }

    /// Resamples `source` (`sourceWidth * sourceHeight * 4` bytes) into
    /// `output` (`width * height * 4` bytes).
    public func run(_ source: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(
            source.count >= sourceWidth * sourceHeight * 4 && output.count >= width * height * 4,
            "LanczosResampler: buffer sizes do not match")
        columns.start.withUnsafeBufferPointer { cs in
            columns.weights.withUnsafeBufferPointer { cw in
                rows.start.withUnsafeBufferPointer { rs in
                    rows.weights.withUnsafeBufferPointer { rw in
                        var c = anim_resample_axis(
                            start: cs.baseAddress, weights: cw.baseAddress, taps: Int32(columns.taps), count: Int32(width))
                        var r = anim_resample_axis(
                            start: rs.baseAddress, weights: rw.baseAddress, taps: Int32(rows.taps), count: Int32(height))
                        let floats = anim_resample_scratch(Int32(sourceWidth), Int32(sourceHeight), &c, &r)
                        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: floats)
                        defer { scratch.deallocate() }
                        anim_resample(
                            source.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(sourceWidth), Int32(sourceHeight),
                            output.baseAddress!.assumingMemoryBound(to: UInt8.self), &c, &r, scratch)
                    }
                }
            }
        }
    }
}
