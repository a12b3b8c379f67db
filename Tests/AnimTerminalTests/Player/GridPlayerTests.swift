import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// `--grid`: panes laid out row by row, each picture inside its pane, each
/// with its own timing, titles above them; keys reach every pane.
struct GridPlayerTests {
    typealias T = PlayerTimingTests

    @Test func panesShareTheScreenRowByRow() {
        let r = Player.regions(count: 3, columns: 2, rows: 2, screen: (81, 24))
        #expect(
            r == [
                CellRegion(row: 1, column: 1, columns: 40, rows: 12),
                CellRegion(row: 1, column: 42, columns: 40, rows: 12),
                CellRegion(row: 13, column: 1, columns: 40, rows: 12),
            ])
        // Too small a screen still gives every pane a cell.
        #expect(Player.regions(count: 4, columns: 4, rows: 1, screen: (3, 1)).allSatisfy { $0.columns == 1 && $0.rows == 1 })
    }

    /// Plays `paths` in a `columns`×1 grid of a 41×10 screen into a file,
    /// on a manual clock; the panes' figures and the bytes written.
    func play(_ paths: [String], titles: Bool, speed: Double = 1) throws -> ([PlayerStatistics], [UInt8]) {
        try T.writingToFile { fd in
            var options = PlayerOptions()
            options.columns = 41
            options.rows = 10
            options.presentation = .plain
            options.output = fd
            options.recordFrames = true
            options.timing.loops = 1
            options.timing.speed = speed
            let sources = try paths.map { (source: try ImageSource(path: $0), name: String($0.split(separator: "/").last!)) }
            let grid = try Player(
                sources: sources, options: options, grid: (paths.count, 1), titles: titles,
                clock: ManualClock(start: 5_000_000_000))
            #expect(try grid.run().outcome == .finished)
            return grid.statistics
        }
    }

    @Test func eachPaneKeepsItsOwnTiming() throws {
        let paths = [Fixtures.path("extra/mixed.gif"), Repository.demo]
        let (stats, _) = try play(paths, titles: false)
        for (path, s) in zip(paths, stats) {
            let durations = try ImageSource(path: path).frames.map {
                Int64($0.duration.components.seconds * 1000) + $0.duration.components.attoseconds / 1_000_000_000_000_000
            }
            let starts = durations.indices.map { durations[..<$0].reduce(0, +) }
            #expect(s.shownFrames.map(\.frame) == Array(durations.indices), "\(path)")
            #expect(s.shownFrames.map { $0.time / 1_000_000 } == starts, "\(path)")
            #expect(s.framesDropped == 0)
        }
        // mixed.gif's 530 ms and the demo's 1200 ms: each its own length.
        #expect(stats[0].shownFrames.last!.time / 1_000_000 == 430)
        #expect(stats[1].shownFrames.last!.time / 1_000_000 == 1160)
    }

    @Test func picturesStayInTheirPanesUnderTheirTitles() throws {
        let paths = [Fixtures.path("extra/mixed.gif"), Repository.demo]
        let (_, bytes) = try play(paths, titles: true, speed: 4)
        var screen = ANSIScreen(columns: 41, rows: 10)
        screen.feed(bytes)
        #expect(screen.errors.isEmpty, "\(screen.errors)")
        func text(row: Int, _ columns: ClosedRange<Int>) -> String {
            String(columns.map { screen.cells[(row - 1) * 41 + $0 - 1].character })
        }
        // Panes 20 columns wide at columns 1 and 22, a blank column between;
        // each title on the row above its picture, the picture centred in
        // the 9 rows below the pane's first: mixed.gif (20×16 pixels, not
        // enlarged) 8 rows from row 2, the demo (3:2) 19 columns and 7 rows from row 3.
        #expect(text(row: 1, 1...20).trimmingCharacters(in: .whitespaces) == "mixed.gif")
        #expect(text(row: 2, 22...41).trimmingCharacters(in: .whitespaces) == "demo.gif")
        #expect(text(row: 1, 22...41).trimmingCharacters(in: .whitespaces).isEmpty)
        for row in 1...10 { #expect(text(row: row, 21...21) == " ", "row \(row): the gap was drawn on") }
        for row in 3...9 { #expect(!text(row: row, 22...40).contains(" "), "row \(row) of the demo (19 columns)") }
        #expect(text(row: 10, 1...41).trimmingCharacters(in: .whitespaces).isEmpty, "below the pictures")
        #expect(text(row: 9, 1...20).trimmingCharacters(in: .whitespaces).count > 10, "mixed.gif's last row")
    }
}
