import Testing

@testable import AnimTerminal

/// `--symbols auto`: octants or sextants only where the terminal is known
/// to draw them (by name and version, from the environment or XTVERSION),
/// else half blocks; never octants through tmux, nothing finer in screen.
struct DetectSymbolsTests {
    func symbols(_ env: [String: String], tmux: TmuxClient? = nil) -> DrawnSymbols {
        TerminalProbe.fromEnvironment(env, terminfo: nil, tmux: tmux).symbols
    }

    func afterReply(_ env: [String: String], version: String) -> TerminalCapabilities {
        var c = TerminalProbe.fromEnvironment(env, terminfo: nil)
        let plan = QueryPlan(environment: env, caps: c)!
        TerminalProbe.apply(
            [.terminalVersion(version), .primaryAttributes([62])], answered: true, plan: plan, size: nil, to: &c)
        return c
    }

    @Test func byTerminalAndVersion() {
        // Seen under Xvfb: kitty 0.26, Konsole 22.12 and VTE 0.70 draw
        // sextants and not octants; xterm, mlterm and urxvt neither.
        #expect(symbols(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]) == .sextant)
        #expect(symbols(["TERM": "xterm-256color", "KONSOLE_VERSION": "221202"]) == .sextant)
        #expect(symbols(["TERM": "xterm-256color", "KONSOLE_VERSION": "220301"]) == .half)
        #expect(symbols(["TERM": "xterm-256color", "VTE_VERSION": "7000"]) == .sextant)
        #expect(symbols(["TERM": "xterm-256color", "VTE_VERSION": "5802"]) == .half)
        #expect(symbols(["TERM": "xterm-256color", "VTE_VERSION": "7800"]) == .octant)
        #expect(symbols(["TERM": "xterm-256color", "XTERM_VERSION": "XTerm(390)"]) == .half)
        #expect(symbols(["TERM": "mlterm"]) == .half)
        #expect(symbols(["TERM": "rxvt-unicode-256color"]) == .half)
        #expect(symbols(["TERM": "xterm-256color"]) == .half)
        #expect(symbols(["TERM": "foot"]) == .sextant)
        #expect(symbols(["TERM": "xterm-256color", "TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.1.0"]) == .sextant)
        #expect(symbols(["TERM": "xterm-256color", "TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.2.3"]) == .octant)
        #expect(symbols(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.5.0"]) == .half)
        #expect(symbols(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.6.7"]) == .sextant)
        #expect(symbols(["TERM": "alacritty", "ALACRITTY_WINDOW_ID": "1"]) == .half)
    }

    /// kitty and foot give their version only in the XTVERSION reply.
    @Test func theVersionReplyRaisesIt() {
        let old = afterReply(["TERM": "xterm-kitty"], version: "kitty(0.26.5)")
        #expect(old.symbols == .sextant)
        let new = afterReply(["TERM": "xterm-kitty"], version: "kitty(0.40.1)")
        #expect(new.symbols == .octant)
        #expect(new.reasons.contains("kitty kitty(0.40.1) draws octants: --symbols auto is octant"))
        #expect(afterReply(["TERM": "foot"], version: "foot(1.20.2)").symbols == .octant)
        #expect(afterReply(["TERM": "foot"], version: "foot(1.16.2)").symbols == .sextant)
        // A reply naming another terminal changes nothing.
        #expect(afterReply(["TERM": "xterm-256color"], version: "XTerm(390)").symbols == .half)
    }

    @Test func multiplexers() {
        // tmux may not know the octants' width: sextants at most.
        let kittyClient = TmuxClient(passthrough: true, termName: "xterm-kitty", features: ["RGB"])
        #expect(symbols(["TERM": "tmux-256color", "TMUX": "/t,1,0"], tmux: kittyClient) == .sextant)
        let vte = ["TERM": "tmux-256color", "TMUX": "/t,1,0", "VTE_VERSION": "7800"]
        #expect(symbols(vte, tmux: TmuxClient(passthrough: false, termName: "xterm-256color", features: [])) == .sextant)
        // GNU screen: half blocks, whatever the outer terminal draws.
        #expect(symbols(["TERM": "screen", "STY": "1.pts-0.h", "KITTY_WINDOW_ID": "1", "VTE_VERSION": "7800"]) == .half)
    }

    @Test func probeSaysWhichSymbols() {
        let caps = TerminalProbe.fromEnvironment(["TERM": "xterm-256color", "VTE_VERSION": "7000"], terminfo: nil)
        #expect(caps.describe().split(separator: "\n").contains("symbols: auto picks sextant"))
        #expect(caps.reasons.contains("VTE 7000 draws sextants: --symbols auto is sextant"))
    }
}
