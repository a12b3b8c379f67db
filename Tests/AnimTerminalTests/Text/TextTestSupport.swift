import AnimKit
import AnimTestSupport

@testable import AnimTerminal

/// What the text-cell tests share: a seeded generator, frames, and the
/// picture a grid or a screen shows, sub-pixel by sub-pixel.
enum TextTestSupport {
    typealias Random = FuzzRandom

    /// A random frame; `transparent` of 256 pixels are fully transparent.
    static func noise(_ w: Int, _ h: Int, _ rng: inout Random, transparent: Int = 0) -> RGBAImage {
        RGBAImage.drawn(width: w, height: h) { _, _ in
            (rng.byte(), rng.byte(), rng.byte(), rng.int(256) < transparent ? 0 : 255)
        }
    }

    /// The colour of every sub-pixel `cells` show, row-major over
    /// `columns * across` by `rows * down`.
    static func subpixels(_ cells: [Cell], columns: Int, rows: Int, _ symbols: TextSymbols) -> [TerminalColor] {
        let w = columns * symbols.across
        let h = rows * symbols.down
        var out = [TerminalColor](repeating: .terminalDefault, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let cell = cells[(y / symbols.down) * columns + x / symbols.across]
                out[y * w + x] = cell.color(at: (y % symbols.down) * symbols.across + x % symbols.across)
            }
        }
        return out
    }

    /// The picture the screen shows in `grid`'s region, sub-pixel by sub-pixel.
    static func subpixels(_ screen: ANSIScreen, _ grid: CellGrid, row: Int = 1, column: Int = 1) -> [TerminalColor] {
        subpixels(screen.region(grid, row: row, column: column), columns: grid.columns, rows: grid.rows, grid.symbols)
    }

    static func rgb(_ c: TerminalColor) -> (Int, Int, Int)? {
        guard case .rgb(let r, let g, let b) = c else { return nil }
        return (Int(r), Int(g), Int(b))
    }

    /// The largest difference on any channel (999 when one is the default and the other not).
    static func levels(_ a: TerminalColor, _ b: TerminalColor) -> Int {
        if a == b { return 0 }
        guard let x = rgb(a), let y = rgb(b) else { return 999 }
        return max(abs(x.0 - y.0), abs(x.1 - y.1), abs(x.2 - y.2))
    }
}
