import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

/// Every symbol set through the renderer and the test terminal: the
/// screen shows the grid's glyphs and colours exactly, frame after frame.
struct TextRenderingTests {
    typealias Random = TextTestSupport.Random

    static let cases: [(TextSymbols, ColorMode)] = TextSymbols.allCases.flatMap { [($0, .trueColor), ($0, .palette256)] }

    /// Random frames with transparent pixels, then mostly static ones (a
    /// few pixels and a small block change), over the default background
    /// and over the checkerboard, at an offset on the screen.
    @Test(arguments: cases)
    func theScreenShowsTheGrid(_ symbols: TextSymbols, _ mode: ColorMode) {
        for (background, seed) in [(Background.none, UInt64(1)), (.checker, 2)] {
            var rng = Random(seed + UInt64(symbols.count))
            let backend = TextBackend(
                mode: mode, tolerance: 0, background: background, symbols: symbols, dither: seed == 2 ? .noise : .none)
            var screen = ANSIScreen(columns: 30, rows: 14)
            let (w, h) = (25 * symbols.across - 1, 11 * symbols.down - 1)  // partial last column and row
            let placement = Placement(row: 3, column: 4, columns: 25, rows: 11, pixels: PixelSize(width: w, height: h))
            var image = TextTestSupport.noise(w, h, &rng, transparent: 40)
            var drawn = 0
            for frame in 0..<24 {
                if frame < 4 {
                    image = TextTestSupport.noise(w, h, &rng, transparent: frame * 30)
                } else {
                    for _ in 0..<rng.int(6) { image.pixels[rng.int(w * h) * 4 + rng.int(4)] = rng.byte() }
                    let (bx, by) = (rng.int(w - 4), rng.int(h - 4))
                    for y in by..<(by + 4) {
                        for x in bx..<(bx + 4) { image.pixels[(y * w + x) * 4 + 3] = frame % 3 == 0 ? 0 : 255 }
                    }
                }
                let bytes = backend.render(image, index: frame, placement: placement)
                drawn += bytes.count
                screen.feed(bytes)
                let grid = backend.renderer.shown!
                let expected = CellGrid(
                    image: image, background: background, symbols: symbols, mode: mode, dither: seed == 2 ? .noise : .none)
                #expect(grid == expected, "\(symbols) \(mode) frame \(frame): shown is the frame's grid")
                #expect(screen.errors.isEmpty, "\(symbols) \(mode) frame \(frame): \(screen.errors)")
                #expect(
                    screen.region(expected, row: 3, column: 4) == expected.cells,
                    "\(symbols) \(mode) frame \(frame): screen differs")
                if mode == .palette256 {
                    #expect(!String(decoding: bytes, as: UTF8.self).contains("[38;2;"), "no truecolor in 256 mode")
                }
                #expect(backend.render(image, index: frame, placement: placement).isEmpty, "the same frame again sends nothing")
            }
            #expect(drawn > 0)
        }
    }

    /// With a tolerance, every sub-pixel on screen stays within it of the
    /// frame (no drift), and a cell wanted in one colour shows one colour
    /// (a space, or a glyph drawn in its own background colour), even where
    /// a two-colour cell near enough is on screen. The run must use the
    /// tolerance (some sub-pixels shown in a near colour, not the one
    /// wanted) and meet that case, else it proves nothing.
    @Test(arguments: TextSymbols.allCases)
    func toleranceKeepsOneColourCellsOneColour(_ symbols: TextSymbols) {
        let tolerance = 3
        let renderer = FrameRenderer(mode: .trueColor, tolerance: tolerance)
        var screen = ANSIScreen(columns: 12, rows: 6)
        var rng = Random(9)
        // The first three greys are within 3 of one another; 92 and 101 are
        // within 3 of one of them and 6 of another, so a renderer that let
        // twice the tolerance pass would drift.
        let base: [TerminalColor] = [
            .rgb(95, 95, 95), .rgb(98, 98, 98), .rgb(96, 97, 95), .rgb(92, 92, 92), .rgb(101, 101, 101),
            .rgb(10, 200, 30), .terminalDefault,
        ]
        var grid = CellGrid(columns: 12, rows: 6, symbols: symbols)
        var nearNotEqual = 0
        var oneColourOverNearTwo = 0
        for frame in 0..<60 {
            let before = screen.region(grid)
            for _ in 0..<(frame == 0 ? 72 : 8) {
                let f = base[rng.int(base.count)]
                let b = base[rng.int(base.count)]
                grid[rng.int(12), rng.int(6)] = Cell(mask: UInt8(rng.int(Int(symbols.fullMask) + 1)), fg: f, bg: b)
            }
            for (i, cell) in grid.cells.enumerated() where cell.mask == 0 && before[i].mask != 0 {
                let near = (0..<symbols.count).allSatisfy {
                    TextTestSupport.levels(before[i].color(at: $0), cell.bg) <= tolerance
                }
                if near { oneColourOverNearTwo += 1 }
            }
            let bytes = renderer.render(grid)
            screen.feed(bytes)
            #expect(screen.errors.isEmpty)
            let shown = TextTestSupport.subpixels(screen, grid)
            let wanted = TextTestSupport.subpixels(grid.cells, columns: 12, rows: 6, symbols)
            #expect(zip(shown, wanted).map { TextTestSupport.levels($0, $1) }.max()! <= tolerance, "frame \(frame)")
            nearNotEqual += zip(shown, wanted).filter { $0 != $1 }.count
            for (i, cell) in grid.cells.enumerated() where cell.mask == 0 {
                let g = screen.cells[i]
                #expect(
                    g.character == " " || g.fg == g.bg,
                    "frame \(frame) cell \(i): one colour, drawn as a space (or a glyph in its background's colour)")
            }
            #expect(renderer.shown!.cells == screen.region(grid), "frame \(frame): shown is what the screen shows")
        }
        #expect(nearNotEqual > 0, "the tolerance was never used")
        #expect(oneColourOverNearTwo > 0, "never a one-colour cell over a near two-colour one")
    }

    /// A half-block frame draws the same bytes through the backend as
    /// through the grid it always had (the player's path).
    @Test func halfBlocksThroughTheBackend() {
        var rng = Random(3)
        let image = TextTestSupport.noise(20, 16, &rng, transparent: 50)
        let backend = TextBackend(mode: .trueColor, tolerance: 2, background: .none)
        let placement = Placement(row: 1, column: 1, columns: 20, rows: 8, pixels: PixelSize(width: 20, height: 16))
        let direct = FrameRenderer(mode: .trueColor, tolerance: 2)
        #expect(
            backend.render(image, index: 0, placement: placement)
                == direct.render(CellGrid(image: image, background: .none, mode: .trueColor)))
    }
}
