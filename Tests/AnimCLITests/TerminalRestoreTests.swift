import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The player in a pseudo-terminal: however it ends (q, SIGINT, SIGTERM,
/// SIGHUP), the tty mode, the cursor and the screen are as they were.
@Suite(.serialized) struct TerminalRestoreTests {
    enum Ending: Sendable, CustomTestStringConvertible {
        case key(String)
        case signal(Int32)
        var isKey: Bool { if case .key = self { return true } else { return false } }
        var testDescription: String { if case .signal(let s) = self { return "signal \(s)" } else { return "key" } }
    }

    struct Outcome {
        var status: Int32
        var before: String, during: String, after: String
        var output: String
    }

    func play(_ ending: Ending, arguments: [String] = []) throws -> Outcome {
        let pty = try PseudoTerminal(columns: 40, rows: 12)
        let before = try pty.sttyG()
        let (p, slave) = try pty.launch(
            CLI.binary, ["play", "--loops", "0", "--status"] + arguments, environment: ["COLORTERM": "truecolor"])
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        // Raw mode is set before the alternate screen is entered.
        #expect(pty.wait(for: "\u{1B}[?1049h", seconds: 20), "the player never took the terminal")
        #expect(pty.wait(for: "\u{1B}[?2026l", seconds: 20), "no frame was drawn")
        let during = try pty.sttyG()
        switch ending {
        case .key(let k): pty.type(k)
        case .signal(let s): kill(p.processIdentifier, s)
        }
        #expect(p.exits(within: 20), "the player did not stop")
        usleep(100_000)  // let the reader drain the last bytes
        let after = try pty.sttyG()
        try slave.close()
        return Outcome(status: p.terminationStatus, before: before, during: during, after: after, output: pty.text)
    }

    /// The terminal as it was: tty mode, visible cursor, main screen.
    func expectRestored(_ o: Outcome) {
        #expect(o.during != o.before, "the player did not put the terminal in raw mode")
        #expect(o.after == o.before, "stty -g before \(o.before), after \(o.after)")
        let out = o.output
        let enter = out.range(of: "\u{1B}[?1049h", options: .backwards)
        let leave = out.range(of: "\u{1B}[?1049l", options: .backwards)
        #expect(enter != nil && leave != nil && leave!.lowerBound > enter!.lowerBound, "the alternate screen was not left")
        let hide = out.range(of: "\u{1B}[?25l", options: .backwards)
        let show = out.range(of: "\u{1B}[?25h", options: .backwards)
        #expect(hide != nil && show != nil && show!.lowerBound > hide!.lowerBound, "the cursor was not shown again")
        let resetColours = out.range(of: "\u{1B}[0m", options: .backwards)
        let lastColour = out.range(of: "\u{1B}[38;2;", options: .backwards)
        #expect(
            resetColours != nil && lastColour != nil && resetColours!.lowerBound > lastColour!.lowerBound,
            "colours were not reset after the last frame")
        expectBalancedUpdates(out)
    }

    /// Every synchronized update opened is closed once, none is closed that
    /// was not opened (kitty logs "Pending mode stop command issued while not
    /// in pending mode" for that), and the status line is drawn inside one.
    func expectBalancedUpdates(_ out: String) {
        var depth = 0
        var unmatched = 0
        var statusOutside = 0
        var rest = Substring(out)
        while let r = rest.range(of: "\u{1B}[") {
            let tail = rest[r.upperBound...]
            if tail.hasPrefix("?2026h") {
                depth += 1
            } else if tail.hasPrefix("?2026l") {
                if depth == 0 { unmatched += 1 } else { depth -= 1 }
            } else if tail.hasPrefix("7m"), depth == 0 {
                statusOutside += 1
            }
            rest = tail
        }
        #expect(unmatched == 0, "\(unmatched) ?2026l without a ?2026h")
        #expect(depth == 0, "an update left open")
        #expect(statusOutside == 0, "the status line was drawn outside a synchronized update \(statusOutside) times")
    }

    /// Ctrl-Z (SIGTSTP): the terminal is restored while stopped; SIGCONT
    /// (fg) takes it again and redraws; q then quits cleanly.
    @Test func suspendAndResume() throws {
        let pty = try PseudoTerminal(columns: 40, rows: 12)
        let before = try pty.sttyG()
        let (p, slave) = try pty.launch(CLI.binary, ["play", "--loops", "0"])
        defer { try? slave.close() }
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        #expect(pty.wait(for: "\u{1B}[?2026l", seconds: 20))
        kill(p.processIdentifier, SIGTSTP)
        #expect(pty.wait(for: "\u{1B}[?1049l", seconds: 10), "the screen was not restored on suspend")
        usleep(200_000)
        #expect(try pty.sttyG() == before, "tty mode not restored while suspended")
        let drawnBefore = pty.output.count
        kill(p.processIdentifier, SIGCONT)
        let end = Date().addingTimeInterval(10)
        while !pty.text.hasSuffix("\u{1B}[?2026l") || pty.output.count <= drawnBefore + 100, Date() < end { usleep(20_000) }
        let resumed = String(decoding: pty.output[drawnBefore...], as: UTF8.self)
        #expect(resumed.contains("\u{1B}[?1049h") && resumed.contains("\u{1B}[38;"), "not redrawn after fg")
        #expect(try pty.sttyG() != before, "raw mode not taken again after fg")
        pty.type("q")
        #expect(p.exits(within: 10))
        #expect(p.terminationStatus == 0)
        #expect(try pty.sttyG() == before)
    }

    /// The pty's reading thread does not keep it alive: once let go, the
    /// terminal is deinitialised and its thread has ended.
    @Test func thePseudoTerminalIsReleased() throws {
        weak var released: PseudoTerminal?
        let reader: PseudoTerminalReader
        do {
            let pty = try PseudoTerminal(columns: 10, rows: 4)
            released = pty
            reader = pty.reader
            // The thread is reading: what the slave is given arrives.
            let slave = try pty.openSlave()
            try slave.write(contentsOf: Data("ping".utf8))
            #expect(pty.wait(for: "ping", seconds: 10))
            try slave.close()
        }
        #expect(released == nil, "the reading thread keeps the terminal alive")
        #expect(reader.isFinished, "the reading thread still runs")
    }

    /// q, Escape and the signals that end the player, each with the status it exits with.
    static let endings: [(Ending, Int32)] = [
        (.key("q"), 0), (.key("\u{1B}"), 0), (.signal(SIGINT), 130), (.signal(SIGTERM), 143), (.signal(SIGHUP), 129),
    ]

    @Test(arguments: endings)
    func endingRestoresTheTerminal(_ ending: Ending, _ status: Int32) throws {
        let o = try play(ending)
        #expect(o.status == status)
        expectRestored(o)
    }

    /// Kitty graphics: the image is deleted before the restore, on q and on a signal.
    @Test(arguments: [Ending.key("q"), .signal(SIGTERM)])
    func kittyImagesAreDeleted(_ ending: Ending) throws {
        let o = try play(ending, arguments: ["--protocol", "kitty"])
        #expect(o.status == (ending.isKey ? 0 : 143))
        #expect(o.after == o.before)
        let delete = o.output.range(of: "\u{1B}_Ga=d,d=I,i=", options: .backwards)
        let leave = o.output.range(of: "\u{1B}[?1049l", options: .backwards)
        let upload = o.output.range(of: "\u{1B}_Ga=T,", options: .backwards)
        #expect(upload != nil && delete != nil && leave != nil)
        if let delete, let leave, let upload {
            #expect(upload.lowerBound < delete.lowerBound && delete.lowerBound < leave.lowerBound)
        }
        expectBalancedUpdates(o.output)
    }
}
