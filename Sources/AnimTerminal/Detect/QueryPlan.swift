/// The round of queries the probe sends, chosen from the environment's verdict
/// and closed by DA1, which every terminal answers. Sent: kitty's graphics
/// query (not where APC and DCS bodies print: the Linux console, GNU screen,
/// urxvt; not inside tmux without passthrough), outside tmux one by shared
/// memory too, XTVERSION, `CSI 16 t` and `CSI 14 t` when `TIOCGWINSZ` gave no
/// pixels, XTSMGRAPHICS unless known to have no sixel (`CSI ? … S` could be
/// taken for a scroll), XTGETTCAP and DECRQSS while direct colour is unknown,
/// and DA1. Inside tmux the outer terminal's queries go wrapped; tmux answers
/// DA1 and the window reports.
struct QueryPlan: Equatable {
    var bytes: [UInt8] = []
    /// The kitty query went out (wrapped for tmux: its reply may be lost).
    var kitty = false
    var kittyWrapped = false
    /// The shared-memory object offered with kitty's query (not in tmux).
    var kittySharedMemory: String?
    var cellSize = false
    var sixel = false
    var directColour = false
    /// The cursor is asked with CPR, not DECXCPR (GNU screen answers only CPR).
    var plainCursorPosition = false

    /// Terminals whose row is needed that answer CPR but not DECXCPR (GNU
    /// screen 4.9; `Terminal.enter` scrolls its lines away). Not urxvt
    /// 9.30: shrunk during play it drops the lines below the new bottom,
    /// and its row then put the shell's next line over the last one kept.
    static let withoutDECXCPR: Set<String> = ["GNU screen"]

    /// Terminals that have no sixel, by the name `Known` gives them.
    static let withoutSixel: Set<String> = ["kitty", "Ghostty", "Alacritty", "Terminal.app", "GNU screen", "urxvt"]

    /// Whether the terminal shows APC and DCS bodies as text.
    static func printsStrings(term: String, caps: TerminalCapabilities) -> Bool {
        if caps.insideScreen { return true }
        if term == "linux" || term.hasPrefix("linux-") || term.hasPrefix("rxvt") { return true }
        return !caps.tmux.inside && term.hasPrefix("screen")
    }

    /// nil when no query should be sent (`TERM` unset or `dumb`).
    /// `sharedMemory` makes the object for the shared-memory query.
    init?(
        environment env: [String: String], caps: TerminalCapabilities, sharedMemory: (() -> String?)? = nil
    ) {
        let term = env["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { return nil }
        let tmux = caps.tmux.inside
        let strings = !Self.printsStrings(term: term, caps: caps)
        func forOuter(_ q: [UInt8]) -> [UInt8] { tmux ? Escape.tmuxPassthrough(q) : q }

        if strings && (!tmux || caps.tmux.passthrough) {
            kitty = true
            kittyWrapped = tmux
            bytes += forOuter(Escape.queryKittyGraphics)
            if !tmux, let name = sharedMemory?() {
                kittySharedMemory = name
                bytes += Escape.queryKittySharedMemory(name: name)
            }
        }
        if strings && !tmux { bytes += Escape.queryTerminalVersion }
        if !caps.cell.isMeasured {
            cellSize = true
            bytes += Escape.queryCellPixels + Escape.queryTextAreaPixels
        }
        let sixelPossible =
            tmux
            ? caps.tmux.passthrough && caps.graphics.contains(.sixel)
            : !Self.withoutSixel.contains(caps.terminalName)
        if sixelPossible {
            sixel = true
            bytes += forOuter(Escape.querySixelRegisters + Escape.querySixelGeometry)
        }
        if strings && !tmux && !caps.trueColor {
            directColour = true
            bytes += Escape.queryTermcap("RGB") + Escape.queryTermcap("Tc") + Escape.queryDirectColour
        }
        plainCursorPosition = !tmux && Self.withoutDECXCPR.contains(caps.terminalName)
        bytes += plainCursorPosition ? Escape.queryPlainCursorPosition : Escape.queryCursorPosition
        bytes += Escape.queryPrimaryAttributes
    }
}
