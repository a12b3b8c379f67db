import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// 256 colours in cells: one-colour cells stay one colour through the
/// renderer; the dither (blue noise or Bayer) is stable, brings areas
/// closer, keeps an area's mean and leaves no bands in the dark.
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
                    image: image, background: .none, symbols: symbols, mode: .palette256, dither: .none)
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

    @Test(arguments: TextSymbols.allCases, [PaletteDither.noise, .ordered])
    func ditherBringsAreasCloser(_ symbols: TextSymbols, _ dither: PaletteDither) {
        let image = PaletteTests.sky(80 * symbols.across, 24 * symbols.down)
        let plain = CellGrid(image: image, background: .none, symbols: symbols, mode: .palette256, dither: .none)
        let dithered = CellGrid(image: image, background: .none, symbols: symbols, mode: .palette256, dither: dither)
        let (e0, e1) = (Self.blockError(image, plain), Self.blockError(image, dithered))
        print(
            "sky in 256 colours, \(symbols), \(dither): error of 8×8 areas \(PaletteTests.format(e0)) plain, \(PaletteTests.format(e1)) dithered"
        )
        #expect(e1 < e0 * 0.75, "\(symbols): dithered \(e1), plain \(e0)")
        #expect(
            dithered == CellGrid(image: image, background: .none, symbols: symbols, mode: .palette256, dither: dither),
            "deterministic")
        #expect(
            CellGrid(image: image, background: .none, symbols: symbols, mode: .trueColor, dither: dither)
                == CellGrid(image: image, background: .none, symbols: symbols, mode: .trueColor, dither: .none),
            "no effect in truecolor")
    }

    /// Ramps through the cube's first step (0 to 95, where a flat offset
    /// of ±20 changed nothing: two bands) and along the grey ramp: every
    /// 8×8 area of sub-pixels keeps its mean within a few levels.
    @Test(arguments: [PaletteDither.noise, .ordered])
    func rampsHaveNoBands(_ dither: PaletteDither) {
        let (w, h) = (192, 64)
        let red = RGBAImage.drawn(width: w, height: h) { x, _ in (UInt8(x * 95 / (w - 1)), 0, 0, 255) }
        let grey = RGBAImage.drawn(width: w, height: h) { x, _ in
            let v = UInt8(20 + x * 200 / (w - 1))
            return (v, v, v, 255)
        }
        for (name, image) in [("dark red", red), ("grey", grey)] {
            let plain = CellGrid(image: image, background: .none, symbols: .half, mode: .palette256, dither: .none)
            let dithered = CellGrid(image: image, background: .none, symbols: .half, mode: .palette256, dither: dither)
            let (e0, e1) = (Self.blockError(image, plain), Self.blockError(image, dithered))
            print(
                "\(name) ramp, \(dither): error of 8×8 areas \(PaletteTests.format(e0)) plain, \(PaletteTests.format(e1)) dithered"
            )
            #expect(e1 < 2.5, "\(name), \(dither): \(e1) levels (plain \(e0))")
        }
    }

    /// A flat colour between the palette's levels: over one tile of
    /// thresholds every channel keeps the colour's light, within a level
    /// and a half (two for Bayer).
    @Test(arguments: [PaletteDither.noise, .ordered])
    func aFlatAreaKeepsItsLight(_ dither: PaletteDither) {
        for (r, g, b) in [(60, 150, 200), (10, 240, 120), (100, 103, 98), (250, 30, 180)] as [(Int, Int, Int)] {
            var light = [0.0, 0.0, 0.0]
            for y in 0..<32 {
                for x in 0..<32 {
                    let c = dither.color(UInt8(r), UInt8(g), UInt8(b), x: x, y: y)
                    #expect(XtermPalette.rgb(XtermPalette.index(c.0, c.1, c.2)) == c, "a palette colour")
                    for (k, v) in [c.0, c.1, c.2].enumerated() { light[k] += Double(OKLab.linear(v)) / 1024 }
                }
            }
            for (k, v) in [r, g, b].enumerated() {
                // The grey case is dithered along the greys, from the mean of its channels.
                let want = r == 100 ? Double(r + g + b) / 3 : Double(v)
                let got = Self.encoded(light[k])
                // Bayer has 64 thresholds: in the dark, where sRGB is steep,
                // one of its steps is more than a level (10 shows as 11.7).
                #expect(
                    abs(got - want) <= (dither == .noise ? 1.5 : 2), "(\(r), \(g), \(b)) \(dither): channel \(k) shows \(got)")
            }
        }
    }

    /// Blue noise: each rank once, and a quarter of the pixels (the ranks
    /// under 256) spread evenly: every 4×4 window of the torus holds 2 to
    /// 6 of them (a random choice of 256 has windows of 0 and of 9 or more).
    @Test func blueNoiseIsEven() {
        #expect(Set(BlueNoise.ranks).count == 1024 && BlueNoise.ranks.allSatisfy { $0 < 1024 })
        var counts: [Int] = []
        for wy in 0..<32 {
            for wx in 0..<32 {
                var n = 0
                for y in wy..<(wy + 4) {
                    for x in wx..<(wx + 4) where BlueNoise.ranks[(y & 31) * 32 + (x & 31)] < 256 { n += 1 }
                }
                counts.append(n)
            }
        }
        #expect(counts.min()! >= 2 && counts.max()! <= 6, "windows hold \(counts.min()!) to \(counts.max()!)")
    }

    /// A sprite moving over a dithered gradient: only the cells it covers
    /// (now or before) change, so the renderer sends only those.
    @Test func ditherIsStableFromFrameToFrame() {
        let symbols = TextSymbols.sextant
        let backend = TextBackend(mode: .palette256, tolerance: 0, background: .none, symbols: symbols, dither: .noise)
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
