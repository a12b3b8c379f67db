import AnimKit
import Testing

@testable import AnimTerminal

struct FrameRendererTests {
    static func image(_ w: Int, _ h: Int, seed: UInt64, alpha: Bool = false) -> RGBAImage {
        var state = seed
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(state >> 56)
        }
        var px = [UInt8]()
        for _ in 0..<(w * h) { px += [next(), next(), next(), alpha ? (next() < 100 ? 0 : 255) : 255] }
        return RGBAImage(width: w, height: h, trusting: px)
    }

    func check(_ screen: ANSIScreen, _ grid: CellGrid, row: Int = 1, column: Int = 1, _ label: String) {
        #expect(screen.errors.isEmpty, "\(label): \(screen.errors)")
        #expect(screen.syncDepth == 0, "\(label): synchronized output left open")
        #expect(screen.region(grid, row: row, column: column) == grid.cells, "\(label): grid differs")
    }

    @Test func everyCellChanging() {
        let renderer = FrameRenderer(mode: .trueColor)
        var screen = ANSIScreen(columns: 20, rows: 8)
        for seed in 1...4 as ClosedRange<UInt64> {
            let grid = CellGrid(image: Self.image(20, 15, seed: seed, alpha: seed % 2 == 0), background: .none, mode: .trueColor)
            screen.feed(renderer.render(grid))
            check(screen, grid, "frame \(seed)")
        }
    }

    @Test func nothingChangingSendsNothing() {
        let renderer = FrameRenderer(mode: .trueColor)
        let grid = CellGrid(image: Self.image(16, 16, seed: 9), background: .checker, mode: .trueColor)
        _ = renderer.render(grid)
        #expect(renderer.render(grid) == [])
    }

    @Test func aFewCellsChanging() {
        let renderer = FrameRenderer(mode: .trueColor)
        var screen = ANSIScreen(columns: 40, rows: 20)
        var image = Self.image(40, 40, seed: 3)
        let first = CellGrid(image: image, background: .none, mode: .trueColor)
        let firstBytes = renderer.render(first)
        screen.feed(firstBytes)
        for (x, y) in [(2, 3), (30, 3), (39, 39)] {
            let i = (y * 40 + x) * 4
            image.pixels[i] &+= 77
        }
        let second = CellGrid(image: image, background: .none, mode: .trueColor)
        let bytes = renderer.render(second)
        screen.feed(bytes)
        check(screen, second, "after 3 pixels changed")
        #expect(bytes.count < 150, "3 cells cost \(bytes.count) bytes (a full frame: \(firstBytes.count))")
        #expect(bytes.filter { $0 == 0xE2 }.count == 3, "exactly three glyphs")
    }

    @Test func aResizeRedrawsEverything() {
        let renderer = FrameRenderer(mode: .trueColor)
        var screen = ANSIScreen(columns: 30, rows: 12)
        screen.feed(renderer.render(CellGrid(image: Self.image(30, 24, seed: 5), background: .none, mode: .trueColor)))
        let smaller = CellGrid(image: Self.image(12, 10, seed: 6), background: .none, mode: .trueColor)
        screen.feed(renderer.render(smaller, row: 2, column: 4))
        check(screen, smaller, row: 2, column: 4, "after resize")
    }

    @Test func palette256() {
        let renderer = FrameRenderer(mode: .palette256)
        var screen = ANSIScreen(columns: 10, rows: 5)
        let grid = CellGrid(image: Self.image(10, 10, seed: 11), background: .none, mode: .palette256)
        let bytes = renderer.render(grid)
        screen.feed(bytes)
        check(screen, grid, "256 colours")
        #expect(!String(decoding: bytes, as: UTF8.self).contains("[38;2;"), "no truecolor in 256 mode")
    }

    @Test func aSolidFrameSetsOneColour() {
        let renderer = FrameRenderer(mode: .trueColor)
        var px: [UInt8] = []
        for _ in 0..<64 { px.append(contentsOf: [10, 200, 30, 255]) }
        let grid = CellGrid(image: RGBAImage(width: 8, height: 8, trusting: px), background: .none, mode: .trueColor)
        let text = String(decoding: renderer.render(grid), as: UTF8.self)
        let sequences = text.split(separator: "\u{1B}", omittingEmptySubsequences: true).count
        // Reset + one position + one background colour; rows joined by CR LF.
        #expect(sequences == 3, "\(text.debugDescription)")
        let row = String(repeating: " ", count: 8)
        #expect(text == "\u{1B}[0m\u{1B}[1H\u{1B}[48;2;10;200;30m" + [row, row, row, row].joined(separator: "\r\n"))
    }

    @Test func transparentPixelsOverTheBackgrounds() {
        let red: [UInt8] = [255, 0, 0, 255]
        let clear: [UInt8] = [0, 0, 0, 0]
        let halfGreen: [UInt8] = [0, 255, 0, 128]
        let px = red + clear + halfGreen
        let image = RGBAImage(width: 1, height: 3, trusting: px)
        let none = CellGrid(image: image, background: .none, mode: .trueColor)
        #expect(
            none.cells == [
                Cell(top: .rgb(255, 0, 0), bottom: .terminalDefault),
                Cell(top: .rgb(0, 255, 0), bottom: .terminalDefault),
            ])
        let solid = CellGrid(image: image, background: .color(0, 0, 0), mode: .trueColor)
        #expect(
            solid.cells[0].color(at: 1) == .rgb(0, 0, 0) && solid.cells[1] == Cell(top: .rgb(0, 128, 0), bottom: .rgb(0, 0, 0)))
        #expect(Background(argument: "#102030") == .color(16, 32, 48) && Background(argument: "nope") == nil)
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor"]) == .trueColor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color"]) == .palette256)
    }

    /// Random sparse changes from a small set of colours (so colours are
    /// reused, gaps redrawn, relative and absolute moves all taken), with the
    /// grid at the screen's right edge and at an offset: the screen always
    /// equals the last grid.
    @Test(arguments: [(1, 1, 24, 10), (3, 5, 40, 16)])
    func randomSparseChangesStayExact(_ row: Int, _ column: Int, _ screenColumns: Int, _ screenRows: Int) {
        let renderer = FrameRenderer(mode: .trueColor)
        var screen = ANSIScreen(columns: screenColumns, rows: screenRows)
        let palette: [TerminalColor] = [
            .terminalDefault, .rgb(0, 0, 0), .rgb(255, 255, 255), .rgb(200, 30, 30), .rgb(10, 120, 240),
        ]
        var state: UInt64 = 77
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        var grid = CellGrid(columns: 24, rows: 8)
        for i in 0..<grid.cells.count { grid.cells[i] = Cell(top: palette[next(5)], bottom: palette[next(5)]) }
        var total = 0
        for frame in 0..<300 {
            let changes = [0, 1, 2, 5, 30][next(5)]
            for _ in 0..<changes {
                grid.cells[next(grid.cells.count)] = Cell(top: palette[next(5)], bottom: palette[next(5)])
            }
            let bytes = renderer.render(grid, row: row, column: column)
            total += bytes.count
            screen.feed(bytes)
            check(screen, grid, row: row, column: column, "frame \(frame)")
            if !screen.errors.isEmpty { break }
        }
        #expect(total > 0)
    }

    @Test func bothColoursInOneSequence() {
        let renderer = FrameRenderer(mode: .trueColor)
        var grid = CellGrid(columns: 1, rows: 1)
        grid.cells[0] = Cell(top: .rgb(1, 2, 3), bottom: .rgb(4, 5, 6))
        let text = String(decoding: renderer.render(grid), as: UTF8.self)
        #expect(text == "\u{1B}[0m\u{1B}[1H\u{1B}[38;2;1;2;3;48;2;4;5;6m▀")
    }

    @Test func shortGapsAreRedrawnNotJumped() {
        // Two changed cells with one unchanged space between them, all on the
        // background already set: the space is sent again (1 byte) instead of ESC [ C.
        let renderer = FrameRenderer(mode: .trueColor)
        let black = Cell(top: .rgb(0, 0, 0), bottom: .rgb(0, 0, 0))
        var grid = CellGrid(columns: 5, rows: 1, fill: black)
        _ = renderer.render(grid)
        grid[1, 0] = Cell(top: .rgb(9, 9, 9), bottom: .rgb(0, 0, 0))
        grid[3, 0] = Cell(top: .rgb(9, 9, 9), bottom: .rgb(0, 0, 0))
        let text = String(decoding: renderer.render(grid), as: UTF8.self)
        #expect(text == "\u{1B}[1;2H\u{1B}[38;2;9;9;9m▀ ▀")
    }

    /// With a tolerance, every cell on screen stays within it of the frame,
    /// frame after frame (no drift), for fewer bytes than exact.
    @Test func toleranceBoundsTheErrorAndSavesBytes() {
        func gradient(_ t: Int) -> CellGrid {
            var g = CellGrid(columns: 30, rows: 10)
            for r in 0..<10 {
                for c in 0..<30 {
                    func v(_ x: Int) -> UInt8 { UInt8(clamping: x) }
                    g[c, r] = Cell(
                        top: .rgb(v(c * 3 + t), v(r * 5), v(100 + t / 2)),
                        bottom: .rgb(v(c * 3 + t + 1), v(r * 5 + 2), v(100 + t / 2)))
                }
            }
            return g
        }
        var totals: [Int] = []
        for tolerance in [0, 2] {
            let renderer = FrameRenderer(mode: .trueColor, tolerance: tolerance)
            var screen = ANSIScreen(columns: 30, rows: 10)
            var total = 0
            for t in 0..<40 {
                let grid = gradient(t)
                let bytes = renderer.render(grid)
                total += bytes.count
                screen.feed(bytes)
                #expect(screen.errors.isEmpty)
                let shown = screen.region(grid)
                var worst = 0
                for (a, b) in zip(shown, grid.cells) {
                    for (x, y) in [(a.color(at: 0), b.color(at: 0)), (a.color(at: 1), b.color(at: 1))] {
                        guard case .rgb(let r1, let g1, let b1) = x, case .rgb(let r2, let g2, let b2) = y else {
                            worst = 999
                            continue
                        }
                        worst = max(worst, abs(Int(r1) - Int(r2)), abs(Int(g1) - Int(g2)), abs(Int(b1) - Int(b2)))
                    }
                }
                #expect(worst <= tolerance, "frame \(t): a cell is \(worst) levels off with tolerance \(tolerance)")
                #expect(
                    renderer.shown.map { zip($0.cells, shown).allSatisfy { $0 == $1 } } == true, "shown is what the screen shows")
            }
            totals.append(total)
        }
        #expect(totals[1] * 10 < totals[0] * 9, "tolerance 2 saves at least 10%: \(totals)")
    }
}
