import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// 256 colours in cells: one-colour cells stay one colour through the
/// renderer, and the ordered dither is stable and brings areas closer.
struct DitherTests {
    typealias Random = TextTestSupport.Random

    /// A flat region whose pixels differ a little but map to one palette
    /// colour, right of cells striped in that colour and another (so the
    /// foreground is that colour when a flat cell comes: a block would
    /// need no colour change). Every flat cell is a space on that colour.
    @Test(arguments: TextSymbols.allCases)
    func aFlatRegionIsOneColour(_ symbols: TextSymbols) {
        let flat = (UInt8(135), UInt8(175), UInt8(215))
        let other = (UInt8(95), UInt8(0), UInt8(0))
        let variants: [(UInt8, UInt8, UInt8)] = (0..<8).map { (k: Int) -> (UInt8, UInt8, UInt8) in
            let r: UInt8 = flat.0 &+ UInt8(k % 3)
            let g: UInt8 = flat.1 &- UInt8(k % 2)
            let b: UInt8 = flat.2 &+ UInt8(k % 4)
            return (r, g, b)
        }
        let index = XtermPalette.index(flat.0, flat.1, flat.2)
        #expect(variants.allSatisfy { XtermPalette.index($0.0, $0.1, $0.2) == index }, "the test's premise")
        let (columns, rows) = (16, 6)
        let (w, h) = (columns * symbols.across, rows * symbols.down)
        var rng = Random(8)
        for tolerance in [0, 2, 3] {
            let renderer = FrameRenderer(mode: .palette256, tolerance: tolerance)
            var screen = ANSIScreen(columns: columns, rows: rows)
            for frame in 0..<6 {
                let image = RGBAImage.drawn(width: w, height: h) { x, y in
                    let striped = x < w / 2 && (y + x / symbols.across + frame) % 2 == 0
                    let c = striped ? other : variants[rng.int(variants.count)]
                    return (c.0, c.1, c.2, 255)
                }
                let grid = CellGrid(
                    image: image, background: .none, symbols: symbols, mode: .palette256, dither: false)
                screen.feed(renderer.render(grid))
                #expect(screen.errors.isEmpty)
                let (r, g, b) = XtermPalette.rgb(index)
                for row in 0..<rows {
                    for column in (columns / 2)..<columns {
                        #expect(
                            grid[column, row] == .solid(.rgb(r, g, b)), "\(symbols) frame \(frame): the grid's cell is one colour"
                        )
                        let shown = screen.cells[row * columns + column]
                        #expect(
                            shown.character == " " && shown.bg == .rgb(r, g, b),
                            "\(symbols) tolerance \(tolerance) frame \(frame) cell \(column),\(row): \(shown)")
                    }
                }
            }
        }
    }

    /// sRGB 0...255 of linear light.
    static func encoded(_ v: Double) -> Double {
        255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055)
    }

    /// The mean difference per channel between the light of each 8×8 block
    /// of sub-pixels shown and of the image: what an eye sees from afar.
    static func blockError(_ image: RGBAImage, _ grid: CellGrid) -> Double {
        let shown = TextTestSupport.subpixels(grid.cells, columns: grid.columns, rows: grid.rows, grid.symbols)
        let w = grid.columns * grid.symbols.across
        var total = 0.0
        var blocks = 0
        for by in stride(from: 0, to: image.height - 7, by: 8) {
            for bx in stride(from: 0, to: image.width - 7, by: 8) {
                var a = [0.0, 0.0, 0.0]
                var b = [0.0, 0.0, 0.0]
                for y in by..<(by + 8) {
                    for x in bx..<(bx + 8) {
                        let p = image.pixel(x: x, y: y)
                        let s = TextTestSupport.rgb(shown[y * w + x])!
                        for (k, v) in [p.r, p.g, p.b].enumerated() { a[k] += Double(OKLab.linear(v)) }
                        for (k, v) in [s.0, s.1, s.2].enumerated() { b[k] += Double(OKLab.linear(UInt8(v))) }
                    }
                }
                for k in 0..<3 { total += abs(encoded(a[k] / 64) - encoded(b[k] / 64)) }
                blocks += 1
            }
        }
        return total / Double(blocks * 3)
    }

    @Test(arguments: TextSymbols.allCases)
    func ditherBringsAreasCloser(_ symbols: TextSymbols) {
        let image = PaletteTests.sky(80 * symbols.across, 24 * symbols.down)
        let plain = CellGrid(image: image, background: .none, symbols: symbols, mode: .palette256, dither: false)
        let dithered = CellGrid(image: image, background: .none, symbols: symbols, mode: .palette256, dither: true)
        let (e0, e1) = (Self.blockError(image, plain), Self.blockError(image, dithered))
        print(
            "sky in 256 colours, \(symbols): error of 8×8 areas \(PaletteTests.format(e0)) plain, \(PaletteTests.format(e1)) dithered"
        )
        #expect(e1 < e0 * 0.75, "\(symbols): dithered \(e1), plain \(e0)")
        #expect(
            dithered == CellGrid(image: image, background: .none, symbols: symbols, mode: .palette256, dither: true),
            "deterministic")
        #expect(
            CellGrid(image: image, background: .none, symbols: symbols, mode: .trueColor, dither: true)
                == CellGrid(image: image, background: .none, symbols: symbols, mode: .trueColor, dither: false),
            "no effect in truecolor")
    }

    /// A sprite moving over a dithered gradient: only the cells it covers
    /// (now or before) change, so the renderer sends only those.
    @Test func ditherIsStableFromFrameToFrame() {
        let symbols = TextSymbols.sextant
        let backend = TextBackend(mode: .palette256, tolerance: 0, background: .none, symbols: symbols, dither: true)
        let base = PaletteTests.sky(80, 48)
        let placement = Placement(row: 1, column: 1, columns: 40, rows: 16, pixels: PixelSize(width: 80, height: 48))
        var previous: CellGrid?
        var sizes: [Int] = []
        for frame in 0..<5 {
            var image = base
            let (sx, sy) = (10 + frame * 12, 20)
            for y in sy..<(sy + 6) {
                for x in sx..<(sx + 6) {
                    image.pixels[(y * 80 + x) * 4] = 250
                    image.pixels[(y * 80 + x) * 4 + 1] = 40
                }
            }
            sizes.append(backend.render(image, index: frame, placement: placement).count)
            let grid = backend.renderer.shown!
            if let previous {
                let changed = (0..<grid.cells.count).filter { grid.cells[$0] != previous.cells[$0] }
                let near = changed.allSatisfy { i in
                    let (c, r) = (i % 40, i / 40)
                    return r >= sy / 3 && r <= (sy + 5) / 3 && c >= (sx - 12) / 2 && c <= (sx + 5) / 2
                }
                #expect(!changed.isEmpty && near, "frame \(frame): only the sprite's cells change: \(changed)")
            }
            previous = grid
        }
        #expect(sizes.dropFirst().allSatisfy { $0 * 10 < sizes[0] }, "bytes per frame \(sizes)")
    }
}
