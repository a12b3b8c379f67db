import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

/// The fitter's split against every split scored the slow way, and the
/// grid's handling of transparent and missing sub-pixels.
struct CellFitterTests {
    typealias Random = TextTestSupport.Random

    /// The squared error of showing `px` split by `mask` in the two means.
    static func error(_ px: [(Double, Double, Double)], _ mask: Int) -> Double {
        var total = 0.0
        for set in [true, false] {
            let members = px.indices.filter { (mask >> $0 & 1 != 0) == set }.map { px[$0] }
            guard !members.isEmpty else { continue }
            let n = Double(members.count)
            let mean = (members.map(\.0).reduce(0, +) / n, members.map(\.1).reduce(0, +) / n, members.map(\.2).reduce(0, +) / n)
            for p in members {
                total += (p.0 - mean.0) * (p.0 - mean.0) + (p.1 - mean.1) * (p.1 - mean.1) + (p.2 - mean.2) * (p.2 - mean.2)
            }
        }
        return total
    }

    @Test(arguments: [2, 4, 6, 8])
    func theSplitIsTheBestOfAll(_ n: Int) {
        var rng = Random(UInt64(n))
        var scratch = [Int32](repeating: 0, count: 24)
        for trial in 0..<200 {
            // Few distinct values half the time, so that ties happen.
            let px = (0..<n).map { _ -> (Double, Double, Double) in
                trial % 2 == 0
                    ? (Double(rng.int(3) * 100), Double(rng.int(2) * 50), 7)
                    : (Double(rng.int(256)), Double(rng.int(256)), Double(rng.int(256)))
            }
            for (i, p) in px.enumerated() {
                scratch[3 * i] = Int32(p.0)
                scratch[3 * i + 1] = Int32(p.1)
                scratch[3 * i + 2] = Int32(p.2)
            }
            let fit = scratch.withUnsafeMutableBufferPointer { CellFitter.fit($0.baseAddress!, count: n) }
            let best = (0..<(1 << n)).map { Self.error(px, $0) }.min()!
            let found = Self.error(px, Int(fit.mask))
            #expect(abs(found - best) < 1e-6, "\(px): split \(fit.mask) error \(found), best \(best)")
            // The colours are the sets' means, rounded, on every channel.
            for i in 0..<n {
                let set = (0..<n).filter { (Int(fit.mask) >> $0 & 1) == (Int(fit.mask) >> i & 1) }
                let count = Double(set.count)
                let mean = (
                    set.map { px[$0].0 }.reduce(0, +) / count, set.map { px[$0].1 }.reduce(0, +) / count,
                    set.map { px[$0].2 }.reduce(0, +) / count
                )
                let shown = TextTestSupport.rgb(fit.mask >> i & 1 != 0 ? fit.fg : fit.bg)!
                #expect(
                    abs(Double(shown.0) - mean.0) <= 0.5 && abs(Double(shown.1) - mean.1) <= 0.5
                        && abs(Double(shown.2) - mean.2) <= 0.5, "\(px): sub-pixel \(i) shows \(shown), mean \(mean)")
            }
            if best == 0 && Set(px.map { "\($0)" }).count == 1 { #expect(fit.mask == 0 && fit.fg == fit.bg) }
        }
    }

    /// The fitter on `px` (RGB triples, sub-pixels in row-major order).
    static func fit(_ px: [(Int32, Int32, Int32)]) -> (mask: UInt8, fg: TerminalColor, bg: TerminalColor) {
        var flat = px.flatMap { [$0.0, $0.1, $0.2] }
        return flat.withUnsafeMutableBufferPointer { CellFitter.fit($0.baseAddress!, count: px.count) }
    }

    /// Splits worked out by hand. The last sub-pixel is always in the
    /// background set, so the mask is the other set's.
    @Test func splitsWorkedOutByHand() {
        // A half block: red over blue, each its own colour.
        let half = Self.fit([(255, 0, 0), (0, 0, 255)])
        #expect(half.mask == 0b01 && half.fg == .rgb(255, 0, 0) && half.bg == .rgb(0, 0, 255))
        // A quadrant cell, left column one colour, right column another:
        // sub-pixels 0 and 2 against 1 and 3.
        let columns = Self.fit([(10, 20, 30), (200, 100, 50), (10, 20, 30), (200, 100, 50)])
        #expect(columns.mask == 0b0101 && columns.fg == .rgb(10, 20, 30) && columns.bg == .rgb(200, 100, 50))
        // A gradient of four with a jump at the end: 0, 40, 80, 200 (plus
        // 10 and 20 on green and blue). Squared error per channel of the
        // three splits in order: {0}|{40,80,200} 13866.7, {0,40}|{80,200}
        // 800 + 7200 = 8000, {0,40,80}|{200} 3200: the last wins, its means
        // 40 and 200.
        let gradient = Self.fit([(0, 10, 20), (40, 50, 60), (80, 90, 100), (200, 210, 220)])
        #expect(gradient.mask == 0b0111 && gradient.fg == .rgb(40, 50, 60) && gradient.bg == .rgb(200, 210, 220))
        // A sextant cell of five dark reds and one near-white: the reds'
        // mean is 53 / 5 = 10.6 on red, rounded to 11.
        let outlier = Self.fit([(10, 0, 0), (11, 0, 0), (11, 0, 0), (10, 0, 0), (11, 0, 0), (250, 250, 250)])
        #expect(outlier.mask == 0b01_1111 && outlier.fg == .rgb(11, 0, 0) && outlier.bg == .rgb(250, 250, 250))
        // One colour: no split.
        let flat = Self.fit([(7, 8, 9), (7, 8, 9), (7, 8, 9), (7, 8, 9)])
        #expect(flat.mask == 0 && flat.fg == .rgb(7, 8, 9) && flat.bg == .rgb(7, 8, 9))
    }

    @Test func transparentSubpixelsAreTheDefaultBackground() {
        // A 2×3 cell: two transparent pixels, four opaque in two colours.
        let o: [UInt8] = [0, 0, 0, 0]
        let a: [UInt8] = [200, 0, 0, 255]
        let b: [UInt8] = [0, 0, 100, 255]
        let half: [UInt8] = [9, 9, 9, 100]
        let image = RGBAImage(width: 2, height: 3, trusting: a + o + b + a + half + b)
        let grid = CellGrid(image: image, background: .none, symbols: .sextant, mode: .trueColor, dither: .none)
        #expect(grid.cells == [Cell(mask: 0b101101, fg: .rgb(100, 0, 50), bg: .terminalDefault)])
        let all = CellGrid(
            image: RGBAImage(width: 2, height: 4), background: .none, symbols: .octant, mode: .trueColor, dither: .none)
        #expect(all.cells == [.solid(.terminalDefault)])
        // Over black, nothing is transparent: the clear pixel is black and
        // the 100/255 grey 9 × 100 / 255 = 3.53, rounded to 4. The two reds
        // (sub-pixels 0 and 3) against the rest, whose mean is (0 + 0 + 0 +
        // 4) / 4 = 1 and (0 + 100 + 100 + 4) / 4 = 51 on blue, is the best
        // split (squared error 9636; the next best, the reds and the grey
        // against the rest, 32299); in canonical form sub-pixel 0 is the
        // background.
        let over = CellGrid(image: image, background: .color(0, 0, 0), symbols: .sextant, mode: .trueColor, dither: .none)
        #expect(over.cells == [Cell(mask: 0b110110, fg: .rgb(1, 1, 51), bg: .rgb(200, 0, 0))])
    }

    /// Where the image ends inside a cell, the rest of the cell is the background.
    @Test func partialCells() {
        var rng = Random(5)
        let image = TextTestSupport.noise(5, 7, &rng)
        for symbols in TextSymbols.allCases {
            let grid = CellGrid(image: image, background: .none, symbols: symbols, mode: .trueColor, dither: .none)
            #expect(
                grid.columns == (5 + symbols.across - 1) / symbols.across && grid.rows == (7 + symbols.down - 1) / symbols.down)
            let shown = TextTestSupport.subpixels(grid.cells, columns: grid.columns, rows: grid.rows, symbols)
            let w = grid.columns * symbols.across
            for y in 0..<(grid.rows * symbols.down) {
                for x in 0..<w where x >= 5 || y >= 7 { #expect(shown[y * w + x] == .terminalDefault, "\(symbols) \(x),\(y)") }
            }
            if symbols == .half {
                // One pixel per sub-pixel: exact.
                for y in 0..<7 {
                    for x in 0..<5 {
                        let p = image.pixel(x: x, y: y)
                        #expect(shown[y * w + x] == .rgb(p.r, p.g, p.b))
                    }
                }
            }
        }
    }
}
