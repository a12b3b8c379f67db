import AnimKit

/// What the replies of the query round decide, over the environment.
///
/// Outside tmux an answered round is the terminal's word: kitty graphics
/// exactly when its query was answered `OK`, sixel exactly when DA1 lists
/// 4. Inside tmux DA1 is tmux's (4: tmux draws sixel) and the kitty reply
/// can only add.
extension TerminalProbe {
    static func apply(
        _ replies: [TerminalReply], answered: Bool, plan: QueryPlan, size: Terminal.WindowSize?,
        to caps: inout TerminalCapabilities
    ) {
        var kittyAnswer: String?
        var attributes: [Int]?
        var areaPixels: (Int, Int)?
        var areaCells: (Int, Int)? = size.map { ($0.columns, $0.rows) }
        for reply in replies {
            switch reply {
            case .kittyGraphics(id: 31?, let message): kittyAnswer = message
            case .kittyGraphics(id: 32?, let message) where plan.kittySharedMemory != nil:
                caps.answers.kittySharedMemory = message == "OK"
                caps.note("kitty's shared-memory query was answered \(message.prefix(40))")
            case .primaryAttributes(let list): attributes = attributes ?? list
            case .cellPixels(let w, let h) where !caps.cell.isMeasured && w > 0 && h > 0 && w <= 1000 && h <= 1000:
                caps.cell = CellGeometry(width: w, height: h)
                caps.note("CSI 16 t: cell \(w)×\(h) px")
            case .textAreaPixels(let w, let h): areaPixels = (w, h)
            case .textAreaCells(let c, let r): areaCells = areaCells ?? (c, r)
            case .graphicsAttribute(1, 0, let values) where values.count >= 1:
                caps.answers.sixelRegisters = values[0]
                caps.note("XTSMGRAPHICS: \(values[0]) sixel colour registers")
            case .graphicsAttribute(2, 0, let values) where values.count >= 2:
                caps.answers.sixelMaxSize = PixelSize(width: values[0], height: values[1])
                caps.note("XTSMGRAPHICS: sixel images up to \(values[0])×\(values[1]) px")
            case .termcap(let name, .some) where name == "RGB" || name == "Tc":
                directColour("XTGETTCAP \(name) answered", &caps)
            case .statusString(_, let text) where keepsDirectColour(text):
                directColour("DECRQSS kept the 24-bit colour (\(text))", &caps)
            case .terminalVersion(let text):
                version(text, &caps)
            case .cursorPosition(let row, let column) where row >= 1 && column >= 1:
                caps.answers.cursorRow = row
                caps.note("\(plan.plainCursorPosition ? "CPR" : "DECXCPR"): the shell's cursor is on row \(row)")
            default:
                break
            }
        }
        if !caps.cell.isMeasured, let (w, h) = areaPixels, let (c, r) = areaCells,
            let cell = CellGeometry.from(pixelWidth: w, pixelHeight: h, columns: c, rows: r)
        {
            caps.cell = cell
            caps.note("CSI 14 t: text area \(w)×\(h) px over \(c)×\(r) cells: cell \(cell.width)×\(cell.height) px")
        }
        kitty(kittyAnswer, answered: answered, plan: plan, &caps)
        if let attributes { primaryAttributes(attributes, &caps) }
        if caps.graphics.contains(.kitty), !caps.kittyAnimates {
            caps.note("kitty graphics, but not kitty itself: each changed frame is a new image (no animation frames)")
        }
    }

    /// The SGR reported holds the probe's 24-bit colour in any spelling
    /// (xterm: `38:2::1:2:3`); the text decides, since terminals flag it
    /// valid with 1 or, as DEC did, 0.
    static func keepsDirectColour(_ text: String) -> Bool {
        ["38:2::1:2:3", "38:2:1:2:3", "38;2;1;2;3"].contains { text.contains($0) }
    }

    /// 24-bit colour, unless known already, with `evidence` noted.
    static func directColour(_ evidence: String, _ caps: inout TerminalCapabilities) {
        guard !caps.trueColor else { return }
        caps.trueColor = true
        caps.note("\(evidence): 24-bit colour")
    }

    static func kitty(_ answer: String?, answered: Bool, plan: QueryPlan, _ caps: inout TerminalCapabilities) {
        guard plan.kitty else { return }
        if answer == "OK" {
            caps.add(
                .kitty, front: caps.graphics.first != .iterm2,
                because: "the kitty graphics query was answered OK: kitty graphics")
        } else if answered, !plan.kittyWrapped, caps.graphics.contains(.kitty) {
            caps.remove(.kitty)
            let why = answer.map { "answered \($0)" } ?? "not answered"
            caps.note("the kitty graphics query was \(why) before DA1: no kitty graphics")
        }
    }

    static func primaryAttributes(_ list: [Int], _ caps: inout TerminalCapabilities) {
        let sixel = list.contains(4)
        let shown = list.map(String.init).joined(separator: ";")
        if caps.tmux.inside {
            guard sixel else { return }
            caps.tmux.drawsSixel = true
            caps.add(.sixel)
            caps.note("tmux's DA1 (\(shown)) lists 4: tmux draws sixel itself")
        } else if sixel {
            caps.add(.sixel, because: "DA1 (\(shown)) lists 4: sixel")
        } else if !sixel, caps.graphics.contains(.sixel) {
            caps.remove(.sixel)
            caps.note("DA1 (\(shown)) does not list 4: no sixel")
        }
    }

    /// XTVERSION names the terminal where no variable did (ssh, sudo).
    static func version(_ text: String, _ caps: inout TerminalCapabilities) {
        caps.answers.version = text
        caps.note("XTVERSION: \(text)")
        if text.hasPrefix("XTerm(") {
            if caps.terminalName.isEmpty || caps.terminalName.hasPrefix("xterm") { caps.terminalName = "xterm" }
            if (xtermPatch(text) ?? 0) >= 331 { directColour("XTVERSION \(text) (patch 331 or later)", &caps) }
        } else if let name = ["WezTerm", "iTerm2"].first(where: { text.hasPrefix($0) }) {
            caps.terminalName = name
            caps.add(.iterm2, front: true, because: "XTVERSION says \(name): iTerm2 images")
            directColour("XTVERSION says \(name)", &caps)
        } else if let name = ["kitty", "foot", "ghostty", "Konsole", "mlterm", "contour"].first(where: {
            text.lowercased().hasPrefix($0.lowercased())
        }) {
            caps.terminalName = caps.terminalName.isEmpty || caps.terminalName.hasPrefix("xterm") ? name : caps.terminalName
            directColour("XTVERSION says \(name)", &caps)
        }
        if !caps.tmux.inside, text.hasPrefix("kitty("), !caps.kittyAnimates {
            caps.kittyAnimates = true
            caps.note("XTVERSION says kitty: its animation frames are played")
        }
        // Outside tmux it is the terminal's own version (kitty's, foot's).
        if !caps.tmux.inside, ["kitty", "foot", "Ghostty", "iTerm2"].contains(caps.terminalName),
            text.lowercased().hasPrefix(caps.terminalName.lowercased())
        {
            chooseSymbols(version: text, &caps)
        }
    }
}
