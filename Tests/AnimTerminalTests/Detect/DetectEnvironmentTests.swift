import Testing

@testable import AnimTerminal

/// `TerminalProbe.fromEnvironment`: a table of environments (with what
/// tmux said, and a terminfo entry) → graphics, colour, tmux flags, name,
/// and the reason line that decided.
struct DetectEnvironmentTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var env: [String: String]
        var tmux: TmuxClient? = nil
        var terminfo: Terminfo? = nil
        var graphics: [GraphicsProtocol]
        var trueColor: Bool
        var name: String
        var reason: String
        var passthrough = false
        var testDescription: String { env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
    }

    static let kittyClient = TmuxClient(passthrough: true, termName: "xterm-kitty", features: ["256", "RGB", "title"])

    static let cases: [Case] = [
        Case(
            env: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], graphics: [.kitty], trueColor: true, name: "kitty",
            reason: "KITTY_WINDOW_ID is set: kitty (kitty, 24-bit colour)"),
        Case(env: ["TERM": "xterm-kitty"], graphics: [.kitty], trueColor: true, name: "kitty", reason: "TERM=xterm-kitty: kitty"),
        Case(
            env: ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], graphics: [.iterm2, .kitty, .sixel], trueColor: true,
            name: "WezTerm", reason: "TERM_PROGRAM=WezTerm: WezTerm (iterm2, kitty, sixel, 24-bit colour)"),
        Case(
            env: ["TERM": "xterm-256color", "WEZTERM_EXECUTABLE": "/usr/bin/wezterm-gui"], graphics: [.iterm2, .kitty, .sixel],
            trueColor: true, name: "WezTerm", reason: "WEZTERM_EXECUTABLE is set"),
        Case(
            env: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], graphics: [.iterm2], trueColor: true, name: "iTerm2",
            reason: "TERM_PROGRAM=iTerm.app"),
        Case(
            env: ["TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"], graphics: [.iterm2], trueColor: true, name: "iTerm2",
            reason: "LC_TERMINAL=iTerm2"),
        Case(
            env: ["TERM": "xterm-256color", "KONSOLE_VERSION": "220401"], graphics: [.kitty, .sixel], trueColor: true,
            name: "Konsole", reason: "KONSOLE_VERSION=220401 (22.04 or later)"),
        Case(
            env: ["TERM": "xterm-256color", "KONSOLE_VERSION": "211202"], graphics: [], trueColor: true,
            name: "Konsole", reason: "KONSOLE_VERSION=211202 (before 22.04)"),
        Case(
            env: ["TERM": "foot"], graphics: [.sixel], trueColor: true, name: "foot",
            reason: "TERM=foot: foot (sixel, 24-bit colour)"),
        Case(env: ["TERM": "mlterm"], graphics: [.sixel], trueColor: true, name: "mlterm", reason: "TERM=mlterm"),
        Case(
            env: ["TERM": "xterm", "MLTERM": "3.9.3"], graphics: [.sixel], trueColor: true, name: "mlterm", reason: "MLTERM=3.9.3"
        ),
        Case(
            env: ["TERM": "xterm-256color", "WT_SESSION": "abc"], graphics: [], trueColor: true, name: "Windows Terminal",
            reason: "WT_SESSION is set"),
        Case(
            env: ["TERM": "xterm", "XTERM_VERSION": "XTerm(390)"], graphics: [], trueColor: true, name: "xterm",
            reason: "XTERM_VERSION=XTerm(390) (patch 331 or later)"),
        Case(
            env: ["TERM": "xterm", "XTERM_VERSION": "XTerm(330)"], graphics: [], trueColor: false, name: "xterm",
            reason: "XTERM_VERSION=XTerm(330): xterm (text cells)"),
        Case(
            env: ["TERM": "xterm-256color", "VTE_VERSION": "7600"], graphics: [], trueColor: true, name: "VTE",
            reason: "VTE_VERSION=7600"),
        Case(
            env: ["TERM": "xterm-256color", "TERM_PROGRAM": "vscode"], graphics: [], trueColor: true, name: "VS Code",
            reason: "TERM_PROGRAM=vscode"),
        Case(
            env: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], graphics: [], trueColor: true, name: "xterm-256color",
            reason: "COLORTERM=truecolor: 24-bit colour"),
        Case(env: ["TERM": "xterm-256color"], graphics: [], trueColor: false, name: "xterm-256color", reason: ""),
        Case(env: ["TERM": "xterm-direct"], graphics: [], trueColor: true, name: "xterm-direct", reason: "direct-colour entry"),
        Case(
            env: ["TERM": "st-256color"], terminfo: Terminfo(names: ["st-256color"], extended: ["Tc": .flag]), graphics: [],
            trueColor: true, name: "st-256color", reason: "the terminfo entry st-256color has Tc: 24-bit colour"),
        // GNU screen: what the terminal outside exported is not screen's.
        Case(
            env: ["TERM": "screen.xterm-256color", "STY": "1234.pts-1.host", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor"],
            graphics: [], trueColor: false, name: "GNU screen", reason: "STY is set: GNU screen (text cells)"),
        Case(
            env: ["TERM": "screen-256color", "COLORTERM": "truecolor", "XTERM_VERSION": "XTerm(379)"], graphics: [],
            trueColor: false, name: "GNU screen", reason: "TERM=screen-256color: GNU screen"),
        Case(
            env: ["TERM": "xterm-256color", "STY": "99.tty2.host", "TERM_PROGRAM": "WezTerm"], graphics: [], trueColor: false,
            name: "GNU screen", reason: "STY is set"),
        Case(
            env: ["TERM": "rxvt-unicode-256color", "COLORTERM": "rxvt-xpm"], graphics: [], trueColor: false, name: "urxvt",
            reason: "TERM=rxvt-unicode-256color: urxvt (text cells)"),
        // tmux: the client's terminal decides; passthrough gates graphics.
        Case(
            env: ["TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TMUX": "/tmp/tmux-0/default,1,0"], tmux: kittyClient,
            graphics: [.kitty], trueColor: true, name: "kitty", reason: "tmux allow-passthrough is on", passthrough: true),
        Case(
            env: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"],
            tmux: TmuxClient(passthrough: false, termName: "xterm-kitty", features: []),
            graphics: [], trueColor: true, name: "kitty", reason: "tmux allow-passthrough is off: graphics off"),
        Case(
            env: ["TERM": "screen-256color", "TMUX": "/tmp/t,1,0"],
            tmux: TmuxClient(passthrough: true, termName: "xterm-256color", features: ["RGB", "sixel"]),
            graphics: [.sixel], trueColor: true, name: "xterm-256color", reason: "tmux's client features include sixel",
            passthrough: true),
        Case(
            env: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"],
            tmux: TmuxClient(passthrough: true, termName: "foot", features: []),
            graphics: [.sixel], trueColor: true, name: "foot", reason: "tmux client TERM=foot: foot", passthrough: true),
        Case(
            env: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "3"], tmux: nil,
            graphics: [], trueColor: true, name: "kitty", reason: "tmux did not answer: graphics off"),
    ]

    @Test(arguments: cases)
    func decides(_ c: Case) {
        let caps = TerminalProbe.fromEnvironment(c.env, terminfo: c.terminfo, tmux: c.tmux)
        #expect(caps.graphics == c.graphics)
        #expect(caps.trueColor == c.trueColor)
        #expect(caps.terminalName == c.name)
        #expect(caps.tmux.inside == (c.env["TMUX"] != nil))
        #expect(caps.tmux.passthrough == c.passthrough)
        #expect(caps.cell == .assumed && !caps.answers.answered && caps.answers.duration == nil)
        if c.reason.isEmpty {
            #expect(caps.reasons.isEmpty, "\(caps.reasons)")
        } else {
            #expect(caps.reasons.contains { $0.contains(c.reason) }, "\(caps.reasons)")
        }
    }

    /// screen started inside tmux: `STY` (set last, by screen) wins over
    /// the `TMUX` it inherited.
    @Test func screenInsideTmuxIsScreen() {
        let caps = TerminalProbe.fromEnvironment(
            ["TERM": "screen", "STY": "1.pts-2.host", "TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "2"], terminfo: nil,
            tmux: TmuxClient(passthrough: true, termName: "xterm-kitty", features: ["RGB"]))
        #expect(caps.insideScreen && caps.graphics.isEmpty && !caps.trueColor && caps.terminalName == "GNU screen")
    }

    /// mlterm and Konsole clear what lies under a sixel image: whole frames there.
    @Test func sixelCompositionByTerminal() {
        func composes(_ env: [String: String]) -> Bool { TerminalProbe.fromEnvironment(env, terminfo: nil).sixelComposes }
        #expect(
            !composes(["TERM": "mlterm"]) && !composes(["TERM": "xterm", "MLTERM": "3.9.3"]), "mlterm by TERM or its own variable"
        )
        #expect(!composes(["TERM": "xterm-256color", "KONSOLE_VERSION": "221202"]))
        #expect(composes(["TERM": "foot"]) && composes(["TERM": "xterm-256color", "XTERM_VERSION": "XTerm(379)"]))
    }

    /// VTE and mlterm bring lines back from the scrollback as the window
    /// grows (seen under Xvfb, Tools/terminals/check.py); xterm does not.
    @Test func linesReturnByTerminal() {
        func returns(_ env: [String: String]) -> Bool { TerminalProbe.fromEnvironment(env, terminfo: nil).linesReturnOnGrow }
        #expect(returns(["TERM": "mlterm"]) && returns(["TERM": "xterm-256color", "VTE_VERSION": "7000"]))
        #expect(!returns(["TERM": "xterm-256color", "XTERM_VERSION": "XTerm(379)"]) && !returns(["TERM": "xterm-kitty"]))
    }

    /// kitty's animation frames only for kitty itself, known by its own
    /// variable with its own `TERM` (inside tmux: the client's): not for
    /// Konsole, WezTerm or Ghostty, which draw kitty images without the
    /// frames, nor for `TERM=xterm-kitty` or `KITTY_WINDOW_ID` alone.
    @Test func kittyAnimationByTerminal() {
        func animates(_ env: [String: String], tmux: TmuxClient? = nil) -> Bool {
            TerminalProbe.fromEnvironment(env, terminfo: nil, tmux: tmux).kittyAnimates
        }
        #expect(animates(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]))
        #expect(animates(["TERM": "tmux-256color", "TMUX": "/t,1,0", "KITTY_WINDOW_ID": "1"], tmux: Self.kittyClient))
        #expect(!animates(["TERM": "xterm-256color", "KONSOLE_VERSION": "221202"]))
        #expect(!animates(["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]))
        #expect(!animates(["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"]))
        #expect(!animates(["TERM": "xterm-kitty"]) && !animates(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"]))
        // Output not a terminal, nothing probed: the same rule, nothing else.
        let piped = TerminalProbe.withoutProbe(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor"])
        #expect(piped.kittyAnimates && piped.graphics.isEmpty && !piped.trueColor)
        #expect(!TerminalProbe.withoutProbe(["TERM": "xterm-ghostty", "KITTY_WINDOW_ID": "1"]).kittyAnimates)
    }

    @Test func passthroughNeededByProtocol() {
        var caps = TerminalProbe.fromEnvironment(
            ["TERM": "tmux-256color", "TMUX": "/t,1,0"], terminfo: nil, tmux: Self.kittyClient)
        #expect(caps.needsPassthrough(.kitty) && caps.needsPassthrough(.sixel) && !caps.needsPassthrough(.text))
        caps.tmux.drawsSixel = true
        #expect(!caps.needsPassthrough(.sixel) && caps.needsPassthrough(.kitty))
        let plain = TerminalProbe.fromEnvironment(["TERM": "xterm-kitty"], terminfo: nil)
        #expect(!plain.needsPassthrough(.kitty))
    }

    @Test func tmuxClientOutputRead() {
        let c = TmuxClient.parse(passthrough: Array("on\n".utf8), client: Array("xterm-kitty 256,RGB,bpaste,sixel\n".utf8))
        #expect(c == TmuxClient(passthrough: true, termName: "xterm-kitty", features: ["256", "RGB", "bpaste", "sixel"]))
        let off = TmuxClient.parse(passthrough: Array("off\n".utf8), client: Array(" \n".utf8))
        #expect(off == TmuxClient(passthrough: false, termName: "", features: []))
        #expect(TmuxClient.parse(passthrough: Array("all".utf8), client: Array("foot".utf8))?.passthrough == true)
        #expect(
            TmuxClient.parse(passthrough: nil, client: Array("foot".utf8))
                == TmuxClient(passthrough: false, termName: "foot", features: []))
        #expect(TmuxClient.parse(passthrough: Array("on".utf8), client: nil) == nil)
    }

    @Test func describeSaysWhatAndWhy() {
        var caps = TerminalProbe.fromEnvironment(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], terminfo: nil)
        caps.answers.duration = .nanoseconds(2_140_000)
        caps.answers.answered = true
        caps.answers.replyCount = 4
        caps.cell = CellGeometry(width: 8, height: 19)
        let lines = caps.describe().split(separator: "\n").map(String.init)
        #expect(lines.contains("terminal: kitty"))
        #expect(lines.contains("graphics: kitty; auto picks kitty"))
        #expect(lines.contains("colour: 24-bit"))
        #expect(lines.contains("cell: 8×19 px (measured)"))
        #expect(lines.contains("query round: 2.1 ms, 4 replies, answered (DA1 seen)"))
        #expect(lines.contains("because: KITTY_WINDOW_ID is set: kitty (kitty, 24-bit colour)"))
        let silent = TerminalProbe.fromEnvironment(["TERM": "xterm"], terminfo: nil).describe()
        #expect(silent.contains("graphics: none; auto picks text") && silent.contains("query round: not sent"))
    }
}
