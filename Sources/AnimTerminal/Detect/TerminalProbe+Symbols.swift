/// Block symbols a terminal draws: half blocks everywhere, sextants
/// (Unicode 13) and octants (Unicode 16, which also hold the sextants'
/// patterns) where known.
public enum DrawnSymbols: String, Sendable {
    /// Half blocks (▀ ▄), in every font: nothing finer is known.
    case half
    /// The sextants of Unicode 13 (2×3).
    case sextant
    /// The octants of Unicode 16 (2×4), and the sextants.
    case octant
}

/// Which block symbols a terminal draws (`--symbols auto`).
///
/// Sextants and octants show only where the terminal draws them itself or
/// its font has them; elsewhere each is an empty box, and a terminal cannot
/// be asked whether it has a glyph. So the answer is a table of terminals
/// that draw them, by version, from their changelogs and sources
/// (Alacritty draws sextants from 0.13.2 but gives no version; xterm,
/// mlterm and urxvt draw neither), checked under Xvfb with no font that
/// has either block.
extension TerminalProbe {
    /// The finest symbols terminal `name` draws, given its version as found
    /// (`VTE_VERSION`, `KONSOLE_VERSION`, an XTVERSION reply; nil unknown),
    /// and why.
    static func drawnSymbols(_ name: String, version: String?) -> (DrawnSymbols, String)? {
        let v = version ?? ""
        let dotted = dottedVersion(v)
        /// The version is `least` or later (false when unknown).
        func from(_ least: [Int]) -> Bool { dotted.map { atLeast($0, least) } ?? false }
        switch name {
        case "kitty":
            // Sextants from 0.19.0 (2020), octants from 0.40.0.
            return from([0, 40]) ? (.octant, "kitty \(v) draws octants") : (.sextant, "kitty draws sextants")
        case "foot":
            // Sextants from 1.7.0 (2021), octants from 1.20.0.
            return from([1, 20]) ? (.octant, "foot \(v) draws octants") : (.sextant, "foot draws sextants")
        case "Ghostty":
            // Sextants from 1.0.0, its first public release; octants from 1.1.1.
            return from([1, 1, 1]) ? (.octant, "Ghostty \(v) draws octants") : (.sextant, "Ghostty draws sextants")
        case "WezTerm":
            // Sextants from 20210814; octants in no release yet.
            return (.sextant, "WezTerm draws sextants")
        case "Contour":
            return (.sextant, "Contour draws sextants")
        case "VTE":
            // VTE_VERSION is major×10000 + minor×100 + micro: sextants from
            // 0.60 (6000), octants from 0.78 (7800).
            guard let n = dotted?.first else { return nil }
            return n >= 7800 ? (.octant, "VTE \(n) draws octants") : n >= 6000 ? (.sextant, "VTE \(n) draws sextants") : nil
        case "Konsole":
            // KONSOLE_VERSION is YYMMPP: sextants from 22.04.
            guard let n = dotted?.first, n >= 220400 else { return nil }
            return (.sextant, "Konsole \(n) draws sextants")
        case "iTerm2":
            return from([3, 6, 7]) ? (.sextant, "iTerm2 \(v) draws sextants") : nil
        default:
            return nil
        }
    }

    /// "0.26.5" or "kitty(0.26.5)" → [0, 26, 5]; nil without a number.
    static func dottedVersion(_ text: String) -> [Int]? {
        let digits = text.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "." }
        let parts = digits.split(separator: ".").compactMap { Int($0) }
        return parts.isEmpty ? nil : parts
    }

    /// Sets `caps.symbols` for the terminal found, noting why. Inside tmux
    /// octants become sextants (tmux's width table may not know Unicode
    /// 16); GNU screen keeps half blocks.
    static func chooseSymbols(version: String?, _ caps: inout TerminalCapabilities) {
        guard !caps.insideScreen, var (symbols, why) = drawnSymbols(caps.terminalName, version: version) else {
            caps.symbols = .half
            return
        }
        if caps.tmux.inside && symbols == .octant {
            symbols = .sextant
            why += ", but tmux may not know their width: sextants"
        }
        guard symbols != caps.symbols else { return }
        caps.symbols = symbols
        caps.note("\(why): --symbols auto is \(symbols.rawValue)")
    }

    /// Version `a` is `b` or later, part by part ([0, 36, 1] is [0, 36] or later).
    static func atLeast(_ a: [Int], _ b: [Int]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x > y }
        return a.count >= b.count
    }

    /// The version the environment gives for terminal `name`.
    static func environmentVersion(_ name: String, _ env: [String: String]) -> String? {
        switch name {
        case "VTE": return env["VTE_VERSION"]
        case "Konsole": return env["KONSOLE_VERSION"]
        case "kitty", "WezTerm", "Ghostty": return env["TERM_PROGRAM_VERSION"]
        case "iTerm2": return env["TERM_PROGRAM_VERSION"] ?? env["LC_TERMINAL_VERSION"]
        default: return nil
        }
    }
}
