import AnimTestSupport
import Foundation
import Testing

/// The player under stress in a pseudo-terminal: its output closed
/// mid-play, a storm of resizes, SIGTERM during the very first frame.
/// No crash, the terminal as it was, and an exit status that says what
/// happened. (Ctrl-Z and fg: `TerminalRestoreTests.suspendAndResume`.)
@Suite(.serialized) struct PlayerStressTests {
    func start(_ pty: PseudoTerminal, _ args: [String], output: Any? = nil) throws -> (Process, FileHandle) {
        try pty.launch(CLI.binary, args, environment: ["COLORTERM": "truecolor"], output: output)
    }

    /// `anim play | head -c 1000`: the reader goes away; the player stops
    /// with 141 (128 + SIGPIPE, what a shell shows for a closed pipe),
    /// and the terminal its keys came from is as it was.
    @Test func outputClosedMidPlay() throws {
        let pty = try PseudoTerminal(columns: 60, rows: 20)
        let before = try pty.sttyG()
        let pipe = Pipe()
        let (p, slave) = try start(pty, ["play", "--loops", "0"], output: pipe)
        defer { try? slave.close() }
        var got = 0
        while got < 1000 {
            let chunk = pipe.fileHandleForReading.readData(ofLength: 1000 - got)
            if chunk.isEmpty { break }
            got += chunk.count
        }
        #expect(got == 1000)
        try pipe.fileHandleForReading.close()
        #expect(p.exits(within: 20), "the player kept running with no reader")
        #expect(p.terminationReason == .exit && p.terminationStatus == 141, "\(p.terminationReason) \(p.terminationStatus)")
        #expect(try pty.sttyG() == before)
    }

    /// 60 resizes in about a second, each with its SIGWINCH: the player
    /// keeps playing, draws at the final size, and quits cleanly.
    /// `--loops 0` plays the built-in demo forever, redrawing every frame.
    @Test func resizeStorm() throws {
        let pty = try PseudoTerminal(columns: 60, rows: 20)
        let before = try pty.sttyG()
        let (p, slave) = try start(pty, ["play", "--loops", "0", "--status"])
        defer {
            try? slave.close()
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
        #expect(pty.wait(for: "\u{1B}[?2026l", seconds: 20), "no frame was drawn")
        for i in 0..<60 {
            pty.resize(columns: UInt16(20 + (i * 7) % 61), rows: UInt16(8 + i % 17))
            kill(p.processIdentifier, SIGWINCH)
            usleep(15_000)
        }
        pty.resize(columns: 30, rows: 10)
        kill(p.processIdentifier, SIGWINCH)
        usleep(800_000)
        #expect(p.isRunning, "the player died in the storm")
        // The last frame drawn fits 30×10: no cursor move past it.
        let out = pty.text
        let start = out.range(of: "\u{1B}[?2026h", options: .backwards)
        let last = start.map { String(out[$0.lowerBound...]) } ?? ""
        #expect(last.contains("\u{1B}[?2026l"), "no complete frame at the end")
        let moves = last.matches(of: /\x1B\[(\d+);(\d+)H/).map { (Int($0.1)!, Int($0.2)!) }
        #expect(!moves.isEmpty && moves.allSatisfy { $0.0 <= 10 && $0.1 <= 30 }, "moves \(moves)")
        pty.type("q")
        #expect(p.exits(within: 20))
        #expect(p.terminationStatus == 0)
        #expect(try pty.sttyG() == before)
    }

    /// SIGTERM as the player takes the terminal, before its first frame
    /// is complete — and, in another run, before it gets that far: either
    /// way 143 and the terminal as it was.
    @Test(arguments: [true, false])
    func terminatedDuringTheFirstFrame(_ waitForScreen: Bool) throws {
        let pty = try PseudoTerminal(columns: 60, rows: 20)
        let before = try pty.sttyG()
        let (p, slave) = try start(pty, ["play", "--loops", "0"])
        defer { try? slave.close() }
        if waitForScreen {
            #expect(pty.wait(for: "\u{1B}[?1049h", seconds: 20))
        } else {
            usleep(1_000)
        }
        kill(p.processIdentifier, SIGTERM)
        #expect(p.exits(within: 20))
        // Killed before the handlers were in place, the status is the signal
        // itself; once the screen is taken, the handlers must have exited.
        if waitForScreen { #expect(p.terminationReason == .exit) }
        let status = p.terminationReason == .exit ? p.terminationStatus : 128 + p.terminationStatus
        #expect(status == 143, "\(p.terminationReason) \(p.terminationStatus)")
        usleep(100_000)
        #expect(try pty.sttyG() == before)
        let out = pty.text
        if out.contains("\u{1B}[?1049h") {
            let enter = out.range(of: "\u{1B}[?1049h", options: .backwards)!
            let leave = out.range(of: "\u{1B}[?1049l", options: .backwards)
            #expect(leave != nil && leave!.lowerBound > enter.lowerBound, "the alternate screen was not left")
        }
    }
}
