/// Deciding from the environment alone: which terminal this is, and what it
/// is known to draw.
extension TerminalProbe {
    /// A terminal recognised by a variable or its `TERM`.
    struct Known: Equatable {
        var name: String
        var graphics: [GraphicsProtocol]
        var trueColor: Bool
        /// What was seen, for `reasons`.
        var evidence: String

        var reason: String {
            let what = graphics.isEmpty ? "text cells" : graphics.map(\.rawValue).joined(separator: ", ")
            return "\(evidence): \(name) (\(what)\(trueColor ? ", 24-bit colour" : ""))"
        }
    }

    /// What the environment says, given the terminal's terminfo entry
    /// (inside tmux: the client's) and what tmux said (nil: not asked or no
    /// answer). Pure: reads nothing but its arguments.
    public static func fromEnvironment(
        _ env: [String: String], terminfo: Terminfo?,
        tmux: TmuxClient? = nil
    ) -> TerminalCapabilities {
        var caps = TerminalCapabilities()
        let inTmux = insideTmux(env)
        var outer = env
        var known: Known?
        if let screen = screen(env, inTmux: !(env["TMUX"] ?? "").isEmpty) {
            // The outer terminal's variables were inherited: screen 4.9 turns
            // 24-bit colour into 8 colours and prints kitty graphics.
            caps.insideScreen = true
            known = screen
            outer = env["TERM"].map { ["TERM": $0] } ?? [:]
        } else if inTmux {
            caps.tmux.inside = true
            caps.note("TMUX is set: inside tmux")
            if outer["TERM_PROGRAM"] == "tmux" { outer["TERM_PROGRAM"] = nil }
            outer["TERM"] = tmux.flatMap { $0.termName.isEmpty ? nil : $0.termName }
            if let name = outer["TERM"] { caps.note("tmux's client terminal is \(name)") }
            known = outer["TERM"].flatMap { byName($0, evidence: "tmux client TERM=\($0)") } ?? byVariables(outer)
        } else {
            known = byVariables(env) ?? env["TERM"].flatMap { byName($0, evidence: "TERM=\($0)") }
        }
        if let known {
            caps.terminalName = known.name
            caps.graphics = known.graphics
            caps.trueColor = known.trueColor
            caps.note(known.reason)
            if Self.sixelClears.contains(known.name) {
                caps.sixelComposes = false
                caps.note("\(known.name) clears what lies under a sixel image: whole frames")
            }
            if Self.linesReturn.contains(known.name) {
                caps.linesReturnOnGrow = true
                caps.note("\(known.name) brings lines back from the scrollback as the window grows")
            }
            if let evidence = kittyItself(env, term: outer["TERM"]) {
                caps.kittyAnimates = true
                caps.note("\(evidence): kitty itself, which plays kitty's animation frames")
            }
        } else {
            caps.terminalName = outer["TERM"] ?? ""
        }
        colourHints(outer, terminfo: terminfo, &caps)
        if inTmux { applyTmux(tmux, &caps) }
        chooseSymbols(version: environmentVersion(caps.terminalName, outer), &caps)
        return caps
    }

    /// What a player may take from the environment alone when its output
    /// is not a terminal and nothing is probed: kitty's animation frames
    /// where the terminal is kitty itself; nothing else.
    public static func withoutProbe(_ env: [String: String]) -> TerminalCapabilities {
        var caps = TerminalCapabilities()
        caps.kittyAnimates = kittyItself(env, term: env["TERM"]) != nil
        return caps
    }

    /// What shows the terminal is kitty itself: `KITTY_WINDOW_ID` (kitty's
    /// own variable) with `term` (tmux's client's inside tmux) kitty's
    /// `xterm-kitty`; nil otherwise. Either alone may be inherited or set
    /// by hand.
    static func kittyItself(_ env: [String: String], term: String?) -> String? {
        guard !(env["KITTY_WINDOW_ID"] ?? "").isEmpty, term == "xterm-kitty" else { return nil }
        return "KITTY_WINDOW_ID is set and TERM=xterm-kitty"
    }

    /// Terminals whose sixel image clears the pixels it does not draw
    /// (mlterm 3.9.3, Konsole 22.12).
    static let sixelClears: Set<String> = ["mlterm", "Konsole"]

    /// Terminals that bring back, as the window grows, the lines a shrink
    /// pushed into the scrollback (`Tools/terminals/check.py`:
    /// xfce4-terminal 1.0.4 on VTE 0.70, mlterm 3.9.3).
    static let linesReturn: Set<String> = ["VTE", "mlterm"]

    /// Inside tmux, and not in a GNU screen started inside it (`screen`).
    static func insideTmux(_ env: [String: String]) -> Bool {
        !(env["TMUX"] ?? "").isEmpty && (env["STY"] ?? "").isEmpty
    }

    /// GNU screen: `STY` is set (whatever `TMUX` or `TERM` say), or `TERM`
    /// is `screen…` outside tmux. Text cells in 256 colours, whatever the
    /// outer terminal's variables say.
    static func screen(_ env: [String: String], inTmux: Bool) -> Known? {
        let term = env["TERM"] ?? ""
        let sty = !(env["STY"] ?? "").isEmpty
        guard sty || (!inTmux && term.hasPrefix("screen")) else { return nil }
        return Known(name: "GNU screen", graphics: [], trueColor: false, evidence: sty ? "STY is set" : "TERM=\(term)")
    }

    /// Terminals that set a variable of their own.
    static func byVariables(_ env: [String: String]) -> Known? {
        func has(_ key: String) -> Bool { !(env[key] ?? "").isEmpty }
        switch env["TERM_PROGRAM"] ?? "" {
        case "WezTerm": return known("WezTerm", "TERM_PROGRAM=WezTerm")
        case "iTerm.app": return known("iTerm2", "TERM_PROGRAM=iTerm.app")
        case "ghostty": return known("Ghostty", "TERM_PROGRAM=ghostty")
        case "kitty": return known("kitty", "TERM_PROGRAM=kitty")
        case "vscode": return known("VS Code", "TERM_PROGRAM=vscode")
        case "Apple_Terminal":
            return Known(name: "Terminal.app", graphics: [], trueColor: false, evidence: "TERM_PROGRAM=Apple_Terminal")
        default: break
        }
        if has("KITTY_WINDOW_ID") { return known("kitty", "KITTY_WINDOW_ID is set") }
        if has("WEZTERM_EXECUTABLE") { return known("WezTerm", "WEZTERM_EXECUTABLE is set") }
        if env["LC_TERMINAL"] == "iTerm2" { return known("iTerm2", "LC_TERMINAL=iTerm2") }
        if has("GHOSTTY_RESOURCES_DIR") { return known("Ghostty", "GHOSTTY_RESOURCES_DIR is set") }
        if let v = env["KONSOLE_VERSION"], !v.isEmpty {
            // 22.04 brought both kitty graphics and sixel; the version is YYMMPP.
            let modern = (Int(v) ?? 0) >= 220400
            return Known(
                name: "Konsole", graphics: modern ? [.kitty, .sixel] : [], trueColor: true,
                evidence: "KONSOLE_VERSION=\(v)\(modern ? " (22.04 or later)" : " (before 22.04)")")
        }
        if let v = env["MLTERM"], !v.isEmpty { return known("mlterm", "MLTERM=\(v)") }  // its TERM is often xterm
        if has("WT_SESSION") { return known("Windows Terminal", "WT_SESSION is set") }
        if let v = env["XTERM_VERSION"], !v.isEmpty { return xterm(v, evidence: "XTERM_VERSION=\(v)") }
        if let v = env["VTE_VERSION"], !v.isEmpty {
            let direct = (Int(v) ?? 0) >= 3600  // VTE 0.36 has 24-bit colour
            return Known(name: "VTE", graphics: [], trueColor: direct, evidence: "VTE_VERSION=\(v)")
        }
        if has("ALACRITTY_WINDOW_ID") { return known("Alacritty", "ALACRITTY_WINDOW_ID is set") }
        return nil
    }

    /// Terminals known by their `TERM` (or, inside tmux, the client's).
    static func byName(_ term: String, evidence: String) -> Known? {
        switch term {
        case "xterm-kitty": return known("kitty", evidence)
        case "xterm-ghostty": return known("Ghostty", evidence)
        case "wezterm": return known("WezTerm", evidence)
        case "alacritty", "alacritty-direct": return known("Alacritty", evidence)
        case "contour": return known("Contour", evidence)
        default: break
        }
        if term.hasPrefix("foot") { return known("foot", evidence) }
        if term.hasPrefix("mlterm") { return known("mlterm", evidence) }
        // rxvt-unicode 9.30 (Debian 12) prints APC bodies: no kitty query.
        if term.hasPrefix("rxvt") { return Known(name: "urxvt", graphics: [], trueColor: false, evidence: evidence) }
        return nil
    }

    /// What each terminal `known` names draws; all have 24-bit colour.
    /// WezTerm implements iTerm2's images fully, kitty's partly, and sixel.
    static let graphicsOf: [String: [GraphicsProtocol]] = [
        "kitty": [.kitty], "Ghostty": [.kitty], "iTerm2": [.iterm2], "WezTerm": [.iterm2, .kitty, .sixel],
        "Contour": [.sixel], "foot": [.sixel], "mlterm": [.sixel], "VS Code": [], "Windows Terminal": [],
        "Alacritty": [],
    ]

    /// `name` (one of `graphicsOf`'s) as recognised by `evidence`.
    static func known(_ name: String, _ evidence: String) -> Known {
        Known(name: name, graphics: graphicsOf[name] ?? [], trueColor: true, evidence: evidence)
    }

    /// xterm: direct colour from patch 331; sixel only as a VT340 (DA1 says).
    static func xterm(_ version: String, evidence: String) -> Known {
        let patch = xtermPatch(version) ?? 0
        return Known(
            name: "xterm", graphics: [], trueColor: patch >= 331,
            evidence: evidence + (patch >= 331 ? " (patch 331 or later)" : ""))
    }

    /// `XTerm(390)` → 390.
    static func xtermPatch(_ version: String) -> Int? {
        guard let open = version.firstIndex(of: "("), let close = version[open...].firstIndex(of: ")") else {
            return Int(version)
        }
        return Int(version[version.index(after: open)..<close])
    }

    /// 24-bit colour declared by `COLORTERM`, a `-direct` entry, or terminfo.
    static func colourHints(_ env: [String: String], terminfo: Terminfo?, _ caps: inout TerminalCapabilities) {
        guard !caps.trueColor else { return }
        let term = env["TERM"] ?? ""
        if let c = env["COLORTERM"], c == "truecolor" || c == "24bit" {
            directColour("COLORTERM=\(c)", &caps)
        } else if term.hasSuffix("-direct") {
            directColour("TERM=\(term) is a direct-colour entry", &caps)
        } else if let terminfo, terminfo.hasDirectColor {
            let cap = terminfo.extended["RGB"] != nil ? "RGB" : "Tc"
            directColour("the terminfo entry \(terminfo.names.first ?? term) has \(cap)", &caps)
        }
    }

    /// Inside tmux: what tmux said decides passthrough and adds features.
    static func applyTmux(_ tmux: TmuxClient?, _ caps: inout TerminalCapabilities) {
        guard let tmux else {
            if !caps.graphics.isEmpty { caps.note("tmux did not answer: graphics off") }
            caps.graphics = []
            return
        }
        if tmux.features.contains("RGB") { directColour("tmux's client features include RGB", &caps) }
        if tmux.features.contains("sixel") { caps.add(.sixel, because: "tmux's client features include sixel: sixel") }
        if tmux.passthrough {
            caps.tmux.passthrough = true
            caps.note("tmux allow-passthrough is on: graphics go wrapped for passthrough")
        } else if !caps.graphics.isEmpty {
            caps.note("tmux allow-passthrough is off: graphics off (tmux set -g allow-passthrough on)")
            caps.graphics = []
        }
    }
}
