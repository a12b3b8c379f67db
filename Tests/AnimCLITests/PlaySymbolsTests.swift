import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--symbols auto` (the default) in a terminal known to draw sextants
/// (VTE 0.70 by its variable) draws sextants; `--symbols half` and an
/// unknown terminal draw half blocks.
@Suite(.serialized) struct PlaySymbolsTests {
    /// Plays the demo in text cells until a frame is drawn, then quits;
    /// whether any sextant (U+1FB00–U+1FB3B: UTF-8 F0 9F AC 80–BB) was sent.
    func sendsSextants(_ env: [String: String], _ extra: [String] = []) throws -> Bool {
        let pty = try PseudoTerminal(columns: 60, rows: 20)
        let (p, slave) = try pty.launch(
            CLI.binary, ["play", "--protocol", "text", "--loops", "0"] + extra,
            environment: env.merging(["COLORTERM": "truecolor"]) { a, _ in a })
        defer { try? slave.close() }
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        #expect(pty.wait(for: "\u{1B}[?6n", seconds: 20), "the probe did not ask for the cursor")
        pty.type("\u{1B}[?5;1R\u{1B}[?62;22c")
        #expect(pty.wait(for: "\u{1B}[?2026l", seconds: 20), "no frame drawn")
        usleep(200_000)
        pty.type("q")
        _ = p.exits(within: 10)
        #expect(p.terminationStatus == 0)
        let out = pty.output
        return (0..<max(0, out.count - 3)).contains { i in
            out[i] == 0xF0 && out[i + 1] == 0x9F && out[i + 2] == 0xAC && (0x80...0xBB).contains(out[i + 3])
        }
    }

    @Test func autoFollowsTheTerminal() throws {
        let vte = ["TERM": "xterm-256color", "VTE_VERSION": "7000"]
        #expect(try sendsSextants(vte), "VTE 0.70 draws sextants")
        #expect(try !sendsSextants(vte, ["--symbols", "half"]), "--symbols half")
        #expect(try !sendsSextants(["TERM": "xterm-256color", "VTE_VERSION": ""]), "an unknown terminal")
    }
}
