/// Shrinks RGBA8 images by area averaging: each output pixel is the mean of
/// the source pixels whose centres lie in the area it covers (a box filter,
/// with the coefficients of Pillow's `Image.BOX`).
///
/// Colours are averaged weighted by alpha (premultiplied), so transparent
/// pixels, whatever colour they hold, do not darken or tint the edges of
/// what is opaque. Separable: a horizontal pass into a float buffer, then a
/// vertical one. Along an axis it enlarges, each output pixel takes the
/// source pixel under its centre (nearest neighbour: pixel art stays sharp).
public final class Downsampler: @unchecked Sendable {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let width: Int
    public let height: Int
    private let rows: [Span]
    private var work: [Float]
    /// Each column as the run of source pixels with a weight and that
    /// weight (a box's weights are equal), in one flat array.
    private let columnTable: [(start: Int, count: Int, weight: Float)]

    /// The source pixels one output pixel covers along an axis: the first
    /// index and a weight per source pixel (weights sum to 1).
    struct Span {
        var start: Int
        var weights: [Float]
    }

    /// A resampler from `sourceWidth`×`sourceHeight` to `width`×`height`
    /// (each at least 1).
    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "Downsampler: empty source")
        self.sourceWidth = sourceWidth; self.sourceHeight = sourceHeight
        self.width = max(width, 1)
        self.height = max(height, 1)
        let columns = Self.spans(from: sourceWidth, to: self.width)
        rows = Self.spans(from: sourceHeight, to: self.height)
        work = [Float](repeating: 0, count: self.width * sourceHeight * 4)
        columnTable = columns.map { span in
            let first = span.weights.firstIndex { $0 != 0 } ?? 0
            let last = span.weights.lastIndex { $0 != 0 } ?? 0
            precondition(span.weights[first...last].allSatisfy { $0 == span.weights[first] }, "Downsampler: not a box")
            return (span.start + first, last - first + 1, span.weights[first])
        }
    }

    /// The size that fits `width`×`height` inside `maxWidth`×`maxHeight`,
    /// keeping the aspect ratio, never enlarging, at least 1×1.
    public static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        guard width > maxWidth || height > maxHeight else { return (width, height) }
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        return (max(1, min(maxWidth, Int((Double(width) * scale).rounded()))),
                max(1, min(maxHeight, Int((Double(height) * scale).rounded()))))
    }

    /// Box-filter coefficients computed as Pillow's `precompute_coeffs`
    /// does for `Image.BOX`: the source pixels whose centres fall inside the
    /// output pixel's area, equally weighted.
    static func spans(from source: Int, to target: Int) -> [Span] {
        let scale = Double(source) / Double(target)
        let support = 0.5 * max(scale, 1)
        return (0..<target).map { i in
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int(center - support + 0.5), 0)
            let hi = min(Int(center + support + 0.5), source)
            var weights = [Float]()
            for s in lo..<max(hi, lo + 1) {
                let x = (Double(s) - center + 0.5) / max(scale, 1)
                weights.append(x > -0.5 && x <= 0.5 ? 1 : 0)
            }
            let total = weights.reduce(0, +)
            if total == 0 { return Span(start: min(lo, source - 1), weights: [1]) }
            return Span(start: lo, weights: weights.map { $0 / total })
        }
    }

    /// Downsamples `source` (`sourceWidth * sourceHeight * 4` bytes) into
    /// `output` (`width * height * 4` bytes).
    public func run(_ source: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(source.count >= sourceWidth * sourceHeight * 4 && output.count >= width * height * 4,
                     "Downsampler: buffer sizes do not match")
        let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        work.withUnsafeMutableBufferPointer { work in
            horizontal(src, work.baseAddress!)
            vertical(work.baseAddress!, dst)
        }
    }

    /// Each source row to `width` premultiplied float pixels.
    private func horizontal(_ src: UnsafePointer<UInt8>, _ work: UnsafeMutablePointer<Float>) {
        columnTable.withUnsafeBufferPointer { table in
            for y in 0..<sourceHeight {
                let row = src + y * sourceWidth * 4
                let out = work + y * width * 4
                for x in 0..<table.count {
                    // A box: equal weights over a run of pixels. Integer sums
                    // of alpha-weighted channels are exact; one multiply
                    // applies the weight.
                    let column = table[x]
                    var r = 0, g = 0, b = 0, a = 0
                    var p = row + column.start * 4
                    for _ in 0..<column.count {
                        let alpha = Int(p[3])
                        r &+= alpha &* Int(p[0]); g &+= alpha &* Int(p[1]); b &+= alpha &* Int(p[2]); a &+= alpha
                        p += 4
                    }
                    let w = column.weight
                    out[x * 4] = Float(r) * w; out[x * 4 + 1] = Float(g) * w
                    out[x * 4 + 2] = Float(b) * w; out[x * 4 + 3] = Float(a) * w
                }
            }
        }
    }

    /// Averages rows, then un-premultiplies and rounds to RGBA8.
    private func vertical(_ work: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<UInt8>) {
        let rowFloats = width * 4
        var acc = [Float](repeating: 0, count: rowFloats)
        for (y, span) in rows.enumerated() {
            for i in 0..<rowFloats { acc[i] = 0 }
            for (k, w) in span.weights.enumerated() {
                let row = work + (span.start + k) * rowFloats
                for i in 0..<rowFloats { acc[i] += w * row[i] }
            }
            let out = dst + y * rowFloats
            for x in 0..<width {
                let a = acc[x * 4 + 3]
                if a < 0.5 / 255 {
                    out[x * 4] = 0; out[x * 4 + 1] = 0; out[x * 4 + 2] = 0; out[x * 4 + 3] = 0
                    continue
                }
                let inv = 1 / a
                out[x * 4] = Self.byte(acc[x * 4] * inv)
                out[x * 4 + 1] = Self.byte(acc[x * 4 + 1] * inv)
                out[x * 4 + 2] = Self.byte(acc[x * 4 + 2] * inv)
                out[x * 4 + 3] = Self.byte(a)
            }
        }
    }

    @inline(__always)
    private static func byte(_ v: Float) -> UInt8 {
        UInt8(min(max(v + 0.5, 0), 255))
    }
}
