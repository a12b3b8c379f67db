/// The two colours and the pattern that show a cell's sub-pixels with the
/// least squared RGB error.
///
/// For a split of the sub-pixels into a set A and the rest B, the best
/// colours are the means of A and of B, and the error is
/// `Σ|p|² − |ΣA|²/|A| − |ΣB|²/|B|`; so the best split is the one with the
/// largest `|ΣA|²/|A| + |ΣB|²/|B|`. Every split is scored: at most
/// 2⁷ = 128 for octants (a split and its complement are the same, so the
/// last sub-pixel stays in B), visited in Gray-code order so that each
/// step moves one sub-pixel between the sets and updates the sums by one
/// addition. This is the exact optimum; 2-means clustering (Lloyd's
/// iterations from a seed) can stop at a worse split and costs about as
/// much at 8 points. The scores are compared as exact integer fractions,
/// so ties go the same way on every machine: to the first split found,
/// and to one colour when a split gains nothing.
enum CellFitter {
    /// The best split of `count` (1–8) sub-pixels, whose RGB are at
    /// `px[3i]`, `px[3i+1]`, `px[3i+2]`: bit i of `mask` set puts
    /// sub-pixel i in the foreground set. Mask 0 is one colour (`fg` = `bg`).
    @inline(__always)
    static func fit(_ px: UnsafePointer<Int32>, count n: Int) -> (mask: UInt8, fg: TerminalColor, bg: TerminalColor) {
        var tr: Int32 = 0, tg: Int32 = 0, tb: Int32 = 0
        var same = true
        for i in 0..<n {
            tr += px[3 * i]; tg += px[3 * i + 1]; tb += px[3 * i + 2]
            same = same && px[3 * i] == px[0] && px[3 * i + 1] == px[1] && px[3 * i + 2] == px[2]
        }
        if same || n == 1 {
            let c = TerminalColor.rgb(UInt8(px[0]), UInt8(px[1]), UInt8(px[2]))
            return (0, c, c)
        }
        // Best so far as a fraction num/den; one colour to start: |T|²/n.
        var bestNum = Int64(tr) * Int64(tr) + Int64(tg) * Int64(tg) + Int64(tb) * Int64(tb), bestDen = Int64(n)
        var best: UInt8 = 0, bestSums = (Int32(0), Int32(0), Int32(0))
        var ar: Int32 = 0, ag: Int32 = 0, ab: Int32 = 0, k = 0
        var gray = 0
        for i in 1..<(1 << (n - 1)) {
            let bit = i.trailingZeroBitCount
            let p = px + 3 * bit
            gray ^= 1 << bit
            if gray >> bit & 1 != 0 { ar += p[0]; ag += p[1]; ab += p[2]; k += 1 } else { ar -= p[0]; ag -= p[1]; ab -= p[2]; k -= 1 }
            let br = tr - ar, bg = tg - ag, bb = tb - ab
            let a2 = Int64(ar * ar + ag * ag + ab * ab), b2 = Int64(br * br + bg * bg + bb * bb)
            let num = a2 * Int64(n - k) + b2 * Int64(k), den = Int64(k * (n - k))
            if num * bestDen > bestNum * den {
                bestNum = num; bestDen = den; best = UInt8(gray); bestSums = (ar, ag, ab)
            }
        }
        if best == 0 {
            let c = mean(tr, tg, tb, n)
            return (0, c, c)
        }
        let k1 = best.nonzeroBitCount
        let (sr, sg, sb) = bestSums
        return (best, mean(sr, sg, sb, k1), mean(tr - sr, tg - sg, tb - sb, n - k1))
    }

    @inline(__always)
    private static func mean(_ r: Int32, _ g: Int32, _ b: Int32, _ n: Int) -> TerminalColor {
        let n = Int32(n), h = n / 2
        return .rgb(UInt8((r + h) / n), UInt8((g + h) / n), UInt8((b + h) / n))
    }
}
