import AnimKit
import AnimTestSupport
import Foundation
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// In a pseudo-terminal that reports 8×19-pixel cells through `TIOCGWINSZ`,
/// the picture the player draws keeps the source's aspect ratio within 2%,
/// with text cells and with kitty graphics.
struct GeometryTests {
    /// Plays the demo's first frame into a pty of 80×24 cells of 8×19 pixels; returns what was written.
    func play(_ graphics: GraphicsProtocol, upscale: Bool = false) throws -> [UInt8] {
        let pty = try PseudoTerminalPair(columns: 80, rows: 24, pixelWidth: 640, pixelHeight: 456)
        defer { pty.close() }
        pty.makeRaw()  // bytes as written
        // Drain the master while the player writes.
        let reader = PseudoTerminalReader()
        reader.start(pty.master)
        defer { reader.stop() }  // also when the player throws
        var options = PlayerOptions()
        options.presentation = .plain
        options.timing.noWait = true
        options.output = pty.slave
        options.look.graphics = graphics
        options.look.colorTolerance = 0
        options.look.upscale = upscale
        let source = try ImageSource(path: Repository.demo, options: DecodingOptions(decodeAhead: 0))
        let player = try Player(source: source, name: "demo", options: options, clock: ManualClock(start: 0))
        #expect(player.placement.cell == CellGeometry(width: 8, height: 19), "cell size from TIOCGWINSZ")
        _ = try player.run()
        return reader.finish()
    }

    @Test(arguments: [false, true])
    func textCellsKeepTheShape(_ upscale: Bool) throws {
        let bytes = try play(.text, upscale: upscale)
        var screen = ANSIScreen(columns: 80, rows: 24)
        screen.feed(bytes)
        #expect(screen.errors.isEmpty, "\(screen.errors)")
        // The drawn sub-pixels: columns with colour, and half rows with colour.
        let visual = screen.visual(.half)
        var columns = Set<Int>()
        var halves = Set<Int>()
        for r in 0..<24 {
            for c in 0..<80 {
                let cell = visual[r * 80 + c]
                if cell.color(at: 0) != TerminalColor.terminalDefault {
                    columns.insert(c)
                    halves.insert(r * 2)
                }
                if cell.color(at: 1) != TerminalColor.terminalDefault {
                    columns.insert(c)
                    halves.insert(r * 2 + 1)
                }
            }
        }
        let drawn = Double(columns.count * 8) / (Double(halves.count) * 9.5)
        let source = 96.0 / 64.0
        #expect(abs(drawn / source - 1) <= 0.02, "\(columns.count) columns × \(halves.count) half rows: \(drawn) vs \(source)")
        // The 96-pixel-wide demo is wider than the box's 80 columns either
        // way: the box's width is filled, upscale or not.
        #expect(columns.count == 80, "\(columns.count) columns")
    }

    @Test(arguments: [false, true])
    func kittyKeepsTheShape(_ upscale: Bool) throws {
        let bytes = try play(.kitty, upscale: upscale)
        var screen = KittyScreen()
        screen.feed(bytes)
        #expect(screen.errors.isEmpty, "\(screen.errors)")
        let image = try #require(screen.frames.first)
        let drawn = Double(image.width) / Double(image.height)
        #expect(abs(drawn / (96.0 / 64.0) - 1) <= 0.02, "\(image.width)×\(image.height)")
        #expect(image.width <= 640 && image.height <= 456)
        // The demo is 96×64: enlarged only when asked, then to fill the box's width.
        #expect(upscale ? image.width == 640 : image.width == 96, "\(image.width)×\(image.height)")
    }
}
