import CColorKernel

/// Shrinks RGBA8 images by area averaging: each output pixel is the mean of
/// the source pixels whose centres lie in the area it covers (a box filter,
/// with the coefficients of Pillow's `Image.BOX`).
///
/// Colours are averaged weighted by alpha (premultiplied), so transparent
/// pixels, whatever colour they hold, do not darken or tint the edges of
/// what is opaque. Each output row sums the source rows it covers, each
/// row's pixels summed per output column, in exact integers; one divide per
/// pixel at the end. Along an axis it enlarges, each output pixel takes the
/// source pixel under its centre (nearest neighbour: pixel art stays
/// sharp).
///
/// Where every box holds at most `ANIM_BOX_MAX_AREA32` pixels (any
/// reduction to a terminal's or a preview's size), the faster path: the
/// source rows are summed first, per source pixel in 32 bits
/// (`anim_box_accumulate_row`, eight lanes at a time with AVX2), then each
/// output row is the sum of its columns' runs (`anim_box_collapse_row`).
/// Larger boxes sum each row per output column in 64 bits
/// (`anim_box_add_row`; a column wider than `ANIM_BOX_MAX_RUN` pixels in
/// Swift) and are written by `anim_box_write_row`. Both give the same
/// pixels.
///
/// Immutable: `run` keeps its sums in memory of its own, so one instance
/// serves any number of threads at once.
public final class Downsampler: Sendable {
    /// Source width in pixels.
    public let sourceWidth: Int
    /// Source height in pixels.
    public let sourceHeight: Int
    /// Output width in pixels (at least 1).
    public let width: Int
    /// Output height in pixels (at least 1).
    public let height: Int
    /// Each column (row) as its run of source pixels (rows) and their equal weight.
    fileprivate let columnTable: [Run]
    fileprivate let rowTable: [Run]
    /// `columnTable`'s starts and counts for the C loop; empty when a
    /// column is too wide for it.
    private let columnStarts: [Int32]
    private let columnCounts: [Int32]
    /// `columnTable`'s weights, for the C row writer.
    private let columnWeights: [Float]
    /// Whether every box is small enough for 32-bit sums (`RowSums`).
    fileprivate let rowsFirst: Bool

    struct Run {
        var start: Int
        var count: Int
        var weight: Float
    }

    /// The source pixels one output pixel covers along an axis: the first
    /// index and a weight per source pixel (weights sum to 1).
    struct Span {
        var start: Int
        var weights: [Float]
    }

    /// A resampler from `sourceWidth`×`sourceHeight` to `width`×`height`
    /// (each at least 1). An empty source is a programmer error (a
    /// precondition).
    public convenience init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.init(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height, rowsFirst: true)
    }

    /// `rowsFirst` false: the 64-bit path whatever the boxes (the tests
    /// compare the two).
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, rowsFirst: Bool) {
        precondition(sourceWidth > 0 && sourceHeight > 0, "Downsampler: empty source")
        (self.sourceWidth, self.sourceHeight) = (sourceWidth, sourceHeight)
        (self.width, self.height) = (max(width, 1), max(height, 1))
        columnTable = Self.spans(from: sourceWidth, to: self.width).map(Self.run)
        rowTable = Self.spans(from: sourceHeight, to: self.height).map(Self.run)
        let narrow = columnTable.allSatisfy { $0.count <= ANIM_BOX_MAX_RUN }
        columnStarts = narrow ? columnTable.map { Int32($0.start) } : []
        columnCounts = narrow ? columnTable.map { Int32($0.count) } : []
        columnWeights = columnTable.map(\.weight)
        let area = (columnTable.map(\.count).max() ?? 0) * (rowTable.map(\.count).max() ?? 0)
        self.rowsFirst = rowsFirst && narrow && area <= Int(ANIM_BOX_MAX_AREA32)
    }

    private static func run(_ span: Span) -> Run {
        let first = span.weights.firstIndex { $0 != 0 } ?? 0
        let last = span.weights.lastIndex { $0 != 0 } ?? 0
        precondition(span.weights[first...last].allSatisfy { $0 == span.weights[first] }, "Downsampler: not a box")
        return Run(start: span.start + first, count: last - first + 1, weight: span.weights[first])
    }

    /// The size that fits `width`×`height` inside `maxWidth`×`maxHeight`,
    /// keeping the aspect ratio, never enlarging, at least 1×1.
    public static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        guard width > maxWidth || height > maxHeight else { return (width, height) }
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        return (
            max(1, min(maxWidth, Int((Double(width) * scale).rounded()))),
            max(1, min(maxHeight, Int((Double(height) * scale).rounded())))
        )
    }

    /// Pillow's `precompute_coeffs` for `Image.BOX`: the source pixels
    /// whose centres fall inside the output pixel's area, equally weighted.
    static func spans(from source: Int, to target: Int) -> [Span] {
        windows(from: source, to: target, support: 0.5) { $0 > -0.5 && $0 <= 0.5 ? 1 : 0 }.map { lo, values in
            let weights = values.map(Float.init)
            let total = weights.reduce(0, +)
            if total == 0 { return Span(start: min(lo, source - 1), weights: [1]) }
            return Span(start: lo, weights: weights.map { $0 / total })
        }
    }

    /// Pillow's `precompute_coeffs` windows, shared with
    /// `LanczosResampler`: for each output pixel, the first source pixel
    /// and `filter` at each source pixel from it, the filter's `support`
    /// widened by the scale when shrinking.
    static func windows(
        from source: Int, to target: Int, support: Double, _ filter: (Double) -> Double
    ) -> [(lo: Int, values: [Double])] {
        let scale = Double(source) / Double(target)
        let filterScale = max(scale, 1)
        return (0..<target).map { i in
            let center = (Double(i) + 0.5) * scale
            let lo = max(Int(center - support * filterScale + 0.5), 0)
            let hi = min(Int(center + support * filterScale + 0.5), source)
            return (lo, (lo..<max(hi, lo + 1)).map { filter((Double($0) - center + 0.5) / filterScale) })
        }
    }

    /// Downsamples `source` (`sourceWidth * sourceHeight * 4` bytes) into
    /// `output` (`width * height * 4` bytes). Shorter buffers are a
    /// programmer error (a precondition).
    public func run(_ source: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(
            source.count >= sourceWidth * sourceHeight * 4 && output.count >= width * height * 4,
            "Downsampler: buffer sizes do not match")
        let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let dst = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let sums = RowSums(self)
        defer { sums.deallocate() }
        rowTable.withUnsafeBufferPointer { rows in
            for y in 0..<rows.count {
                let span = rows[y]
                if y > 0 && rows[y - 1].start == span.start && rows[y - 1].count == span.count {
                    // Enlarging: the same source row as the row above.
                    (dst + y * width * 4).update(from: dst + (y - 1) * width * 4, count: width * 4)
                    continue
                }
                sums.clear()
                for sy in span.start..<(span.start + span.count) { add(row: src + sy * sourceWidth * 4, to: sums) }
                write(sums, weight: span.weight, to: dst + y * width * 4)
            }
        }
    }

    /// Adds one source row's alpha-weighted pixels to each output column's sums.
    @inline(__always)
    fileprivate func add(row: UnsafePointer<UInt8>, to rowSums: RowSums) {
        if let perSource = rowSums.perSource {
            anim_box_accumulate_row(row, Int32(sourceWidth), perSource)
            return
        }
        let sums = rowSums.perColumn!
        if !columnStarts.isEmpty {
            anim_box_add_row(row, columnStarts, columnCounts, Int32(width), sums)
            return
        }
        columnTable.withUnsafeBufferPointer { table in
            for x in 0..<table.count {
                let column = table[x]
                var r: Int64 = 0
                var g: Int64 = 0
                var b: Int64 = 0
                var a: Int64 = 0
                var p = row + column.start * 4
                for _ in 0..<column.count {
                    let alpha = Int64(p[3])
                    r &+= alpha &* Int64(p[0])
                    g &+= alpha &* Int64(p[1])
                    b &+= alpha &* Int64(p[2])
                    a &+= alpha
                    p += 4
                }
                let q = sums + x * 4
                q[0] &+= r
                q[1] &+= g
                q[2] &+= b
                q[3] &+= a
            }
        }
    }

    /// One output row from its sums (`anim_box_collapse_row`,
    /// `anim_box_write_row`): colour Σα·c / Σα, alpha Σα × the box's weight
    /// (the mean alpha, 0–255); a mean below half a level, which rounds to
    /// alpha 0, gives transparent black.
    @inline(__always)
    fileprivate func write(_ sums: RowSums, weight rowWeight: Float, to out: UnsafeMutablePointer<UInt8>) {
        if let perSource = sums.perSource {
            anim_box_collapse_row(perSource, columnStarts, columnCounts, columnWeights, rowWeight, Int32(width), out)
        } else {
            anim_box_write_row(sums.perColumn!, columnWeights, rowWeight, Int32(width), out)
        }
    }
}

/// The sums of one output row while its source rows are added: per source
/// pixel in 32 bits where the boxes are small enough (`rowsFirst`), else
/// per output column in 64 bits; each Σα·r, Σα·g, Σα·b, Σα. Owned by
/// whoever made it (`deallocate`).
private struct RowSums {
    let perSource: UnsafeMutablePointer<UInt32>?
    let perColumn: UnsafeMutablePointer<Int64>?
    private let count: Int

    init(_ down: Downsampler) {
        let rowsFirst = down.rowsFirst
        count = 4 * (rowsFirst ? down.sourceWidth : down.width)
        perSource = rowsFirst ? .allocate(capacity: count) : nil
        perColumn = rowsFirst ? nil : .allocate(capacity: count)
        clear()
    }

    func clear() {
        perSource?.initialize(repeating: 0, count: count)
        perColumn?.initialize(repeating: 0, count: count)
    }

    func deallocate() {
        perSource?.deallocate()
        perColumn?.deallocate()
    }
}

extension Downsampler {
    /// Shrinks an image handed over a row at a time, top to bottom, into
    /// `output`: the same pixels as `run` on the whole image, holding one
    /// row of sums instead of the image (a still decoded straight to a
    /// preview's size). Nil when an output row would need a source row
    /// another one needs too (enlarging).
    func rows(into output: UnsafeMutableRawBufferPointer) -> RowFeed? {
        precondition(output.count >= width * height * 4, "Downsampler: buffer sizes do not match")
        for y in 1..<max(rowTable.count, 1) where rowTable[y].start < rowTable[y - 1].start + rowTable[y - 1].count {
            return nil
        }
        return RowFeed(self, output)
    }

    /// See `rows(into:)`. Not `Sendable`: one feed per decode.
    final class RowFeed {
        private let down: Downsampler
        private let output: UnsafeMutablePointer<UInt8>
        private let sums: RowSums
        /// The next source row and the output row it goes to.
        private var source = 0, row = 0

        fileprivate init(_ down: Downsampler, _ output: UnsafeMutableRawBufferPointer) {
            self.down = down
            self.output = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            sums = RowSums(down)
        }

        deinit { sums.deallocate() }

        /// Adds source row after the last one (`sourceWidth` RGBA8 pixels).
        func add(_ pixels: UnsafePointer<UInt8>) {
            flush(before: source)
            if row < down.height && down.rowTable[row].start <= source { down.add(row: pixels, to: sums) }
            source += 1
        }

        /// Writes the output rows that every source row has been added for.
        func finish() { flush(before: Int.max) }

        private func flush(before next: Int) {
            while row < down.height, down.rowTable[row].start + down.rowTable[row].count <= next {
                down.write(sums, weight: down.rowTable[row].weight, to: output + row * down.width * 4)
                sums.clear()
                row += 1
            }
        }
    }
}
