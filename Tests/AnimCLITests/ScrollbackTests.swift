import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The shell's output survives resizes during play: the player asks where
/// the cursor is (DECXCPR), keeps it on that row between frames, moves it
/// up with a window that shrinks below it, and leaves it there at the end.
@Suite(.serialized) struct ScrollbackTests {
    /// Resizes the window and tells the player, as the terminal would.
    func resize(_ pty: PseudoTerminal, _ p: Process, rows: UInt16) {
        pty.resize(columns: 40, rows: rows)
        kill(p.processIdentifier, SIGWINCH)
    }

    /// Resizes, then whether a frame drawn after it leaves the cursor on `row`.
    func resized(_ pty: PseudoTerminal, _ p: Process, to rows: UInt16, waitsOn row: Int) -> Bool {
        let mark = pty.output.count
        resize(pty, p, rows: rows)
        return pty.wait(for: "\u{1B}[\(row);1H\u{1B}[?2026l", seconds: 20, after: mark)
    }

    /// Quits with q; the player ends with status 0 and its restore is read.
    func quit(_ pty: PseudoTerminal, _ p: Process) {
        pty.type("q")
        _ = p.exits(within: 10)
        #expect(p.terminationStatus == 0)
        usleep(100_000)
    }

    @Test func theCursorWaitsOnTheShellsRow() throws {
        let pty = try PseudoTerminal(columns: 40, rows: 30)
        let (p, slave) = try pty.launch(
            CLI.binary, ["play", "--loops", "0"], environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        defer { try? slave.close() }
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        #expect(pty.wait(for: "\u{1B}[?6n", seconds: 20), "the probe did not ask for the cursor")
        pty.type("\u{1B}[?25;1R\u{1B}[?62;22c")  // row 25, then DA1 closes the round
        #expect(pty.wait(for: "\u{1B}[25;1H\u{1B}[?2026l", seconds: 20), "frames do not leave the cursor on row 25")
        // The window shrinks to 12 rows: the cursor follows to the last row.
        #expect(resized(pty, p, to: 12, waitsOn: 12), "after the shrink the cursor waits on row 12")
        // Larger again: the shell's output stays where the shrink put it.
        let grown = pty.output.count
        resize(pty, p, rows: 30)
        usleep(400_000)
        let later = String(decoding: pty.output[grown...], as: UTF8.self)
        #expect(
            later.contains("\u{1B}[12;1H\u{1B}[?2026l") && !later.contains("\u{1B}[25;1H\u{1B}[?2026l")
                && !later.contains("\u{1B}[30;1H\u{1B}[?2026l"), "still row 12")
        quit(pty, p)
        #expect(pty.text.hasSuffix("\u{1B}[?1049l\u{1B}[12;1H"), "after the restore the cursor is where the output now ends")
    }

    /// VTE brings the pushed lines back as the window grows: the row
    /// follows them down (xfce4-terminal under Xvfb: kept on the shrunk
    /// row, the shell's next output overwrote its old lines).
    @Test func inVTETheRowComesBackWithTheLines() throws {
        let pty = try PseudoTerminal(columns: 40, rows: 30)
        let (p, slave) = try pty.launch(
            CLI.binary, ["play", "--loops", "0"],
            environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "VTE_VERSION": "7006"])
        defer { try? slave.close() }
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        #expect(pty.wait(for: "\u{1B}[?6n", seconds: 20), "the probe did not ask for the cursor")
        pty.type("\u{1B}[?25;1R\u{1B}[?62;22c")
        #expect(pty.wait(for: "\u{1B}[25;1H\u{1B}[?2026l", seconds: 20))
        #expect(resized(pty, p, to: 12, waitsOn: 12), "13 lines pushed into the scrollback: row 12")
        #expect(resized(pty, p, to: 20, waitsOn: 20), "8 of them back: row 20")
        #expect(resized(pty, p, to: 40, waitsOn: 25), "the other 5, and no more: row 25 again")
        quit(pty, p)
        #expect(pty.text.hasSuffix("\u{1B}[?1049l\u{1B}[25;1H"), "after the restore the cursor is where the output ends")
    }

    /// GNU screen's alternate screen is off unless configured: the shell's
    /// lines above the cursor (row 9 by CPR) are scrolled into screen's
    /// scrollback before the picture is drawn, and the restore clears the
    /// window from its top, where the cursor ends (under Xvfb before,
    /// the last frame stayed and the prompt came mid-picture).
    @Test func inScreenTheLinesGoToTheScrollback() throws {
        let pty = try PseudoTerminal(columns: 40, rows: 20)
        let (p, slave) = try pty.launch(
            CLI.binary, ["play", "--loops", "0"], environment: ["TERM": "screen", "STY": "1.pts-0.host", "TMUX": ""])
        defer { try? slave.close() }
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        #expect(pty.wait(for: "\u{1B}[6n", seconds: 20), "the probe did not ask for the cursor with CPR")
        pty.type("\u{1B}[9;1R\u{1B}[?62;22c")
        #expect(pty.wait(for: "\u{1B}[?2026l", seconds: 20), "no frame drawn")
        // The tty turns each LF into CR LF.
        #expect(
            pty.text.contains("\u{1B}[20;1H" + String(repeating: "\r\n", count: 8) + "\u{1B}[?1049h"), "8 lines scrolled away")
        quit(pty, p)
        #expect(pty.text.hasSuffix("\u{1B}[?1049l\u{1B}[1;1H\u{1B}[J"), "the window cleared from the top")
    }
}
