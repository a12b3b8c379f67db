import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

/// Finer symbols on real animations: the error of what the screen shows.
struct SymbolQualityTests {
    /// A fixture and a cell box no set's sub-pixels outnumber its pixels in.
    static let fixtures: [(String, Int, Int)] = [
        ("Animations/demo.gif", 48, 16), ("Animations/demo.png", 48, 16), ("Animations/demo.webp", 48, 16),
        ("Tests/AnimKitTests/Fixtures/webp/lossy-anim-softalpha.webp", 24, 8),
        ("Tests/AnimKitTests/Fixtures/extra/long.gif", 32, 12),
    ]
    static let background = Background.color(32, 32, 32)

    static func frames(_ path: String, _ w: Int, _ h: Int) throws -> ImageSource {
        var options = DecodingOptions()
        options.resizeTo = PixelSize(width: w, height: h)
        return try ImageSource(path: path, options: options)
    }

    static func sampled(_ count: Int) -> StrideTo<Int> { stride(from: 0, to: count, by: max(count / 6, 1)) }

    static func squared(_ a: TerminalColor, _ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), x: Int, y: Int) -> Double {
        let c = TextTestSupport.rgb(a)!
        let t = TextTestSupport.rgb(background.compose(p.r, p.g, p.b, p.a, x: x, y: y))!
        return Double((c.0 - t.0) * (c.0 - t.0) + (c.1 - t.1) * (c.1 - t.1) + (c.2 - t.2) * (c.2 - t.2))
    }

    /// The mean squared error per channel of `symbols` on `shown` against
    /// every pixel of `reference`, over the sampled frames; `color` reads
    /// the colour shown at a reference pixel (x, y) from the frame's cells.
    static func meanError(
        _ reference: ImageSource, _ shown: ImageSource, _ symbols: TextSymbols,
        _ color: (_ grid: CellGrid, _ x: Int, _ y: Int) -> TerminalColor
    ) throws -> Double {
        var total = 0.0
        var count = 0
        for index in sampled(reference.frameCount) {
            let grid = CellGrid(
                image: try shown.frame(at: index), background: background, symbols: symbols, mode: .trueColor, dither: .none)
            let truth = try reference.frame(at: index)
            for y in 0..<truth.height {
                for x in 0..<truth.width {
                    total += squared(color(grid, x, y), truth.pixel(x: x, y: y), x: x, y: y)
                    count += 3
                }
            }
        }
        return total / Double(count)
    }

    /// The mean squared error per channel of what `symbols` show against
    /// the frame at the sextants' resolution (2×3 a cell): a half-block
    /// cell covers it as its top colour, the mean of the two, and its
    /// bottom colour, row by row (the middle row is half each).
    static func errorAtSextantResolution(_ path: String, _ symbols: TextSymbols, columns: Int, rows: Int) throws -> Double {
        precondition(symbols == .half || symbols == .sextant)
        let reference = try frames(path, columns * 2, rows * 3)
        let shown = try frames(path, columns * symbols.across, rows * symbols.down)
        return try meanError(reference, shown, symbols) { grid, x, y in
            let cell = grid[x / 2, y / 3]
            if symbols == .sextant { return cell.color(at: (y % 3) * 2 + x % 2) }
            guard y % 3 == 1 else { return cell.color(at: y % 3 / 2) }
            let t = TextTestSupport.rgb(cell.color(at: 0))!
            let b = TextTestSupport.rgb(cell.color(at: 1))!
            return .rgb(UInt8((t.0 + b.0 + 1) / 2), UInt8((t.1 + b.1 + 1) / 2), UInt8((t.2 + b.2 + 1) / 2))
        }
    }

    /// The mean squared error per channel of what `symbols` show against
    /// the frame at its own size: each of its pixels against the sub-pixel
    /// under the pixel's centre (every set's sub-pixels are at least as
    /// large as the frame's pixels in these boxes).
    static func errorAtFullSize(_ path: String, _ symbols: TextSymbols, columns: Int, rows: Int) throws -> Double {
        let reference = try ImageSource(path: path)
        let shown = try frames(path, columns * symbols.across, rows * symbols.down)
        let (w, h) = (reference.width, reference.height)
        let (sw, sh) = (columns * symbols.across, rows * symbols.down)
        precondition(sw <= w && sh <= h)
        return try meanError(reference, shown, symbols) { grid, x, y in
            let sx = (2 * x + 1) * sw / (2 * w)
            let sy = (2 * y + 1) * sh / (2 * h)
            return grid[sx / symbols.across, sy / symbols.down].color(
                at: sy % symbols.down * symbols.across + sx % symbols.across)
        }
    }

    static func format(_ v: Double) -> String { String(Double(Int((v * 10).rounded())) / 10) }

    @Test(arguments: fixtures)
    func sextantsShowLessErrorThanHalfBlocks(_ name: String, _ columns: Int, _ rows: Int) throws {
        let path = Repository.path(name)
        let half = try Self.errorAtSextantResolution(path, .half, columns: columns, rows: rows)
        let sextant = try Self.errorAtSextantResolution(path, .sextant, columns: columns, rows: rows)
        let full = try TextSymbols.allCases.map { try Self.errorAtFullSize(path, $0, columns: columns, rows: rows) }
        print(
            "MSE per channel, \(name) in \(columns)×\(rows) cells: at 2×3 a cell half \(Self.format(half)), sextant \(Self.format(sextant));"
                + " at full size " + zip(TextSymbols.allCases, full).map { "\($0) \(Self.format($1))" }.joined(separator: ", "))
        #expect(sextant < half, "\(name): at 2×3 a cell, sextants \(sextant), half blocks \(half)")
        #expect(full[1] < full[0] && full[3] < full[1], "\(name): quadrants beat half blocks, octants quadrants: \(full)")
        if name.contains("softalpha") {
            // 48×32 pixels of hard one- and two-pixel colour stripes: the
            // sextants' 48×24 is a 4:3 box resample (rows alternately one
            // pixel and the mean of two), and a 2×3 cell of stripes holds
            // more than two colours, so at full size sextants lose to half
            // blocks' exact 2:1 means (128 against 85), and win at 2×3 a cell.
            #expect(full[2] > full[0] && full[3] < full[2], "\(name): \(full)")
        } else {
            #expect(
                full[2] < full[0] * 0.7 && full[3] < full[2], "\(name): at full size, sextants \(full[2]), half blocks \(full[0])"
            )
        }
    }
}
