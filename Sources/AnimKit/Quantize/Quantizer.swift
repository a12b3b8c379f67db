/// Chooses a palette for a histogram of colours: the exact colours when
/// there are few enough, else a variance-based median cut refined by
/// k-means (Lloyd) iterations, in the weighted RGB space of
/// `PaletteSearch`.
///
/// Median cut splits the box with the largest weighted squared error, along
/// its axis of largest spread, where the least error is left on both sides
/// (Wu's criterion, on sorted bins rather than his 3-D moment tables);
/// k-means then moves each colour to the mean of the pixels nearest to it,
/// which axis-aligned boxes cannot. Both work on the histogram's bins
/// (exact mean colours weighted by pixel count), so their cost does not
/// grow with the image.
enum Quantizer {
    /// A histogram bin: the mean colour of its pixels and their number.
    struct Entry {
        var r: Float, g: Float, b: Float, w: Float

        subscript(axis: Int) -> Float { axis == 0 ? r : axis == 1 ? g : b }
    }

    static let axisWeight: [Float] = [Float(PaletteSearch.weightR), Float(PaletteSearch.weightG), Float(PaletteSearch.weightB)]

    /// At most `maxColors` colours for the histogram's pixels.
    static func palette(_ histogram: ColorHistogram, maxColors: Int, iterations: Int) -> QuantizedPalette {
        if !histogram.overflowed && histogram.distinct.count <= maxColors {
            return QuantizedPalette(colors: histogram.distinct, meanSquaredError: 0)
        }
        var entries = histogram.entries()
        var centroids = medianCut(&entries, maxColors)
        centroids = refine(entries, centroids, iterations: iterations)
        var seen = Set<UInt32>()
        let colors = centroids.map(key).filter { seen.insert($0).inserted }
        return QuantizedPalette(colors: colors, meanSquaredError: meanSquaredError(entries, colors))
    }

    /// The estimated error of `colors` for the histogram's pixels (as
    /// `QuantizedPalette.meanSquaredError`).
    static func meanSquaredError(_ entries: [Entry], _ colors: [UInt32]) -> Double {
        guard !colors.isEmpty else { return .infinity }
        return meanSquaredError(entries, PaletteSearch(colors))
    }

    /// The same, with a search over the palette already built.
    static func meanSquaredError(_ entries: [Entry], _ search: PaletteSearch) -> Double {
        var sum = 0.0
        var weight = 0.0
        for e in entries {
            let d = search.nearestByScan(Int32(e.r.rounded()), Int32(e.g.rounded()), Int32(e.b.rounded())).distance
            sum += Double(d) * Double(e.w)
            weight += Double(e.w)
        }
        return weight > 0 ? sum / weight / Double(PaletteSearch.weightSum) : 0
    }

    private static func key(_ c: SIMD3<Float>) -> UInt32 {
        let r = UInt32(min(max(c.x.rounded(), 0), 255))
        let g = UInt32(min(max(c.y.rounded(), 0), 255))
        let b = UInt32(min(max(c.z.rounded(), 0), 255))
        return 0xFF00_0000 | r << 16 | g << 8 | b
    }

    // MARK: median cut

    private struct Box { var lo: Int, hi: Int, error: Float }

    static func medianCut(_ entries: inout [Entry], _ k: Int) -> [SIMD3<Float>] {
        guard !entries.isEmpty else { return [] }
        var boxes = [Box(lo: 0, hi: entries.count, error: boxError(entries, 0, entries.count))]
        while boxes.count < k {
            var pick = -1
            var worst: Float = 0
            for (i, box) in boxes.enumerated() where box.hi - box.lo > 1 && box.error > worst {
                pick = i
                worst = box.error
            }
            if pick < 0 { break }
            let (left, right) = split(&entries, boxes[pick])
            boxes[pick] = left
            boxes.append(right)
        }
        return boxes.map { mean(entries, $0.lo, $0.hi) }
    }

    private static func mean(_ e: [Entry], _ lo: Int, _ hi: Int) -> SIMD3<Float> {
        var s = SIMD3<Float>(0, 0, 0)
        var w: Float = 0
        for i in lo..<hi {
            s += SIMD3(e[i].r, e[i].g, e[i].b) * e[i].w
            w += e[i].w
        }
        return s / w
    }

    private static func boxError(_ e: [Entry], _ lo: Int, _ hi: Int) -> Float {
        let m = mean(e, lo, hi)
        var error: Float = 0
        for i in lo..<hi {
            let d = SIMD3(e[i].r, e[i].g, e[i].b) - m
            error += e[i].w * (axisWeight[0] * d.x * d.x + axisWeight[1] * d.y * d.y + axisWeight[2] * d.z * d.z)
        }
        return error
    }

    /// Splits along the axis of largest weighted spread, where the two
    /// halves' errors sum to the least.
    private static func split(_ e: inout [Entry], _ box: Box) -> (Box, Box) {
        let m = mean(e, box.lo, box.hi)
        var spread = SIMD3<Float>(0, 0, 0)
        for i in box.lo..<box.hi {
            let d = SIMD3(e[i].r, e[i].g, e[i].b) - m
            spread += d * d * e[i].w
        }
        spread *= SIMD3(axisWeight[0], axisWeight[1], axisWeight[2])
        let axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : (spread.y >= spread.z ? 1 : 2)
        sortStably(&e, box.lo, box.hi, axis: axis)
        // Totals, then a scan of every split point with prefix sums.
        var tw: Double = 0
        var ts = SIMD3<Double>(0, 0, 0)
        var tq: Double = 0
        for i in box.lo..<box.hi { accumulate(e[i], &tw, &ts, &tq) }
        var lw: Double = 0
        var ls = SIMD3<Double>(0, 0, 0)
        var lq: Double = 0
        var bestAt = box.lo + 1
        var best = Double.infinity
        var bestLeft = 0.0
        var bestRight = 0.0
        for j in (box.lo + 1)..<box.hi {
            accumulate(e[j - 1], &lw, &ls, &lq)
            let left = sse(lw, ls, lq)
            let right = sse(tw - lw, ts - ls, tq - lq)
            if left + right < best {
                best = left + right
                bestAt = j
                bestLeft = left
                bestRight = right
            }
        }
        return (
            Box(lo: box.lo, hi: bestAt, error: Float(max(bestLeft, 0))),
            Box(lo: bestAt, hi: box.hi, error: Float(max(bestRight, 0)))
        )
    }

    /// Sorts `e[lo..<hi]` by the `axis` coordinate, keeping the order of
    /// equal ones, through integers: a coordinate is a non-negative float,
    /// whose bits order as an integer's, above the entry's place. (A
    /// closure reading the axis at each comparison cost much of sixel
    /// play's CPU.)
    static func sortStably(_ e: inout [Entry], _ lo: Int, _ hi: Int, axis: Int) {
        var keys = [UInt64](repeating: 0, count: hi - lo)
        for i in lo..<hi {
            let c = e[i][axis]
            keys[i - lo] = UInt64(c > 0 ? c.bitPattern : 0) << 32 | UInt64(i - lo)
        }
        keys.sort()
        let was = Array(e[lo..<hi])
        for (k, key) in keys.enumerated() { e[lo + k] = was[Int(truncatingIfNeeded: key & 0xFFFF_FFFF)] }
    }

    @inline(__always)
    private static func accumulate(_ e: Entry, _ w: inout Double, _ s: inout SIMD3<Double>, _ q: inout Double) {
        let c = SIMD3<Double>(Double(e.r), Double(e.g), Double(e.b))
        let ew = Double(e.w)
        let aw = SIMD3<Double>(Double(axisWeight[0]), Double(axisWeight[1]), Double(axisWeight[2]))
        w += ew
        s += c * ew
        q += ew * (aw * c * c).sum()
    }

    /// The weighted squared error of a set from its sums: Σw·|c|² − |Σw·c|²/Σw.
    @inline(__always)
    private static func sse(_ w: Double, _ s: SIMD3<Double>, _ q: Double) -> Double {
        guard w > 0 else { return 0 }
        let aw = SIMD3<Double>(Double(axisWeight[0]), Double(axisWeight[1]), Double(axisWeight[2]))
        return q - (aw * s * s).sum() / w
    }

    // MARK: k-means

    /// Lloyd iterations: assign each bin to its nearest colour, move each
    /// colour to its bins' mean; stops early once no colour moves.
    static func refine(_ entries: [Entry], _ start: [SIMD3<Float>], iterations: Int) -> [SIMD3<Float>] {
        var centroids = start
        guard !centroids.isEmpty else { return centroids }
        for _ in 0..<iterations {
            let search = PaletteSearch(centroids.map(key))
            var sums = [SIMD3<Float>](repeating: .zero, count: centroids.count)
            var weights = [Float](repeating: 0, count: centroids.count)
            for e in entries {
                let i = search.nearest(Int32(e.r.rounded()), Int32(e.g.rounded()), Int32(e.b.rounded())).index
                sums[i] += SIMD3(e.r, e.g, e.b) * e.w
                weights[i] += e.w
            }
            var moved = false
            for i in centroids.indices where weights[i] > 0 {
                let next = sums[i] / weights[i]
                if key(next) != key(centroids[i]) { moved = true }
                centroids[i] = next
            }
            if !moved { break }
        }
        return centroids
    }
}
