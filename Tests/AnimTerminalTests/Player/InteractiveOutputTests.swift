import AnimKit
import AnimTestSupport
import Foundation
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// An interactive player whose output is not standard output: the
/// alternate screen, the hidden cursor and their restore go where the
/// frames go.
struct InteractiveOutputTests {
    @Test func enterAndRestoreGoToTheOutput() throws {
        let pty = try PseudoTerminalPair(columns: 40, rows: 12)
        defer { pty.close() }
        pty.makeRaw()  // bytes as written
        #expect(pty.slave != 1)
        let reader = PseudoTerminalReader()
        reader.start(pty.master)
        defer { reader.stop() }  // also when the player throws
        var options = PlayerOptions()
        options.presentation = .fullScreen
        options.output = pty.slave
        options.input = pty.slave  // keys from the pty, never the terminal the tests run in
        options.timing.loops = 1
        options.timing.speed = 8  // the demo's 1.2 s in 150 ms
        // Real time: an interactive player waits for keys, and a manual
        // clock would never move.
        let source = try ImageSource(path: Repository.demo, options: DecodingOptions(decodeAhead: 0))
        let player = try Player(source: source, name: "demo", options: options)
        let stats = try ProcessSignals.isolated { try player.run() }
        let bytes = reader.finish()
        #expect(stats.outcome == .finished && stats.framesShown > 0, "\(stats.framesShown) frames shown")
        let enter = Escape.alternateScreenOn + Escape.hideCursor + Escape.clearScreen
        let restore = Escape.resetAttributes + Escape.showCursor + Escape.alternateScreenOff
        #expect(bytes.starts(with: enter), "the set-up is the first thing on the output")
        #expect(
            bytes.count > enter.count + restore.count && bytes.suffix(restore.count).elementsEqual(restore),
            "the restore is the last")
        let frames = bytes.dropFirst(enter.count).dropLast(restore.count)
        #expect(Array(frames).contains(subsequence: Escape.syncEnd), "frames in between")
    }

    /// The status line says which way the frames go (`r` turns them).
    @Test func theStatusLineSaysTheDirection() throws {
        var options = PlayerOptions()
        options.presentation = .fullScreen
        options.showStatus = true
        let source = try ImageSource(path: Repository.demo, options: DecodingOptions(decodeAhead: 0))
        let player = try Player(source: source, name: "demo", options: options)
        let pane = player.panes[0]
        func line(_ mode: PlaybackMode) -> String {
            pane.scheduler.mode = mode
            pane.layout.lastStatus = ""
            return String(decoding: player.statusLine(pane, 4) ?? [], as: UTF8.self)
        }
        #expect(line(.forward).contains(" demo  frame 5/30  speed 1x  dropped 0"))
        #expect(line(.reverse).contains("speed 1x backwards  dropped"))
        #expect(line(.pingPong).contains("speed 1x back and forth  dropped"))
    }
}
