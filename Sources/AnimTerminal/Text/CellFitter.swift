/// The two colours and the pattern that show a cell's sub-pixels with the
/// least squared RGB error.
///
/// For a split of the n sub-pixels into a set A of k and the rest B, the
/// best colours are the means of A and B, and the error is the total
/// scatter `Σ|p − T/n|²` (T the sum of all) less `|D|²/(n·k·(n−k))`, where
/// `D = n·ΣA − k·T`: the best split has the largest `|D|²/(k·(n−k))`.
/// Every split is scored (at most 2⁷ for octants: the last sub-pixel stays
/// in B), in Gray-code order so each step updates D by `±(n·p − T)`: the
/// exact optimum, which 2-means can miss, at about its cost. Scores are
/// compared as exact integer fractions, so ties go the same way everywhere:
/// to the first split found, and to one colour when a split gains nothing.
enum CellFitter {
    /// The best split of `count` (1–8) sub-pixels whose RGB are at `px[3i…]`
    /// (overwritten); bit i of `mask`: sub-pixel i is foreground (0: one colour).
    @inline(__always)
    static func fit(_ px: UnsafeMutablePointer<Int32>, count n: Int) -> (mask: UInt8, fg: TerminalColor, bg: TerminalColor) {
        var tr: Int32 = 0
        var tg: Int32 = 0
        var tb: Int32 = 0
        var same = true
        for i in 0..<n {
            tr += px[3 * i]
            tg += px[3 * i + 1]
            tb += px[3 * i + 2]
            same = same && px[3 * i] == px[0] && px[3 * i + 1] == px[1] && px[3 * i + 2] == px[2]
        }
        if same || n == 1 {
            let c = TerminalColor.rgb(UInt8(px[0]), UInt8(px[1]), UInt8(px[2]))
            return (0, c, c)
        }
        let n32 = Int32(n)
        for i in 0..<n {  // q = n·p − T
            px[3 * i] = n32 &* px[3 * i] &- tr
            px[3 * i + 1] = n32 &* px[3 * i + 1] &- tg
            px[3 * i + 2] = n32 &* px[3 * i + 2] &- tb
        }
        // Bounds: |D| a channel is |(n−k)·ΣA − k·ΣB| ≤ k(n−k)·255 ≤ 4080,
        // so |D|² < 2²⁶ and the cross products below < 2³¹: Int32 holds them.
        var bestNum: Int32 = 0
        var bestDen: Int32 = 1
        var best = 0
        var dr: Int32 = 0
        var dg: Int32 = 0
        var db: Int32 = 0
        var k: Int32 = 0
        var gray = 0
        for i in 1..<(1 << (n - 1)) {
            let bit = i.trailingZeroBitCount
            let q = px + 3 * bit
            gray ^= 1 << bit
            let sign = Int32(truncatingIfNeeded: gray >> bit & 1) &* 2 &- 1  // +1 in, -1 out
            dr = dr &+ sign &* q[0]
            dg = dg &+ sign &* q[1]
            db = db &+ sign &* q[2]
            k = k &+ sign
            let num = dr &* dr &+ dg &* dg &+ db &* db
            let den = k &* (n32 &- k)
            if num &* bestDen > bestNum &* den {
                bestNum = num
                bestDen = den
                best = gray
            }
        }
        return colors(best, q: px, count: n, total: (tr, tg, tb))
    }

    /// The split `mask` with its two means, from the `q = n·p − T` of its
    /// sub-pixels: ΣA = (Σ_A q + k·T)/n, exactly.
    @inline(__always)
    private static func colors(_ mask: Int, q: UnsafePointer<Int32>, count n: Int, total t: (Int32, Int32, Int32))
        -> (mask: UInt8, fg: TerminalColor, bg: TerminalColor)
    {
        guard mask != 0 else {
            let c = mean(t.0, t.1, t.2, n)
            return (0, c, c)
        }
        let k = mask.nonzeroBitCount
        let k32 = Int32(k)
        let n32 = Int32(n)
        var sr: Int32 = 0
        var sg: Int32 = 0
        var sb: Int32 = 0
        for i in 0..<n where mask >> i & 1 != 0 {
            sr += q[3 * i]
            sg += q[3 * i + 1]
            sb += q[3 * i + 2]
        }
        (sr, sg, sb) = ((sr + k32 * t.0) / n32, (sg + k32 * t.1) / n32, (sb + k32 * t.2) / n32)
        return (UInt8(mask), mean(sr, sg, sb, k), mean(t.0 - sr, t.1 - sg, t.2 - sb, n - k))
    }

    @inline(__always)
    private static func mean(_ r: Int32, _ g: Int32, _ b: Int32, _ n: Int) -> TerminalColor {
        let n = Int32(n)
        let h = n / 2
        return .rgb(UInt8((r + h) / n), UInt8((g + h) / n), UInt8((b + h) / n))
    }
}
