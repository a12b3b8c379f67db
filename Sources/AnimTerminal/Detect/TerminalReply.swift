/// One reply a terminal sent to a query, parsed strictly
/// (`TerminalReplyParser`), its values bounded (numbers at most 65535,
/// kitty's keys 32 bits, strings 4096 bytes of printable ASCII).
public enum TerminalReply: Equatable, Sendable {
    /// Primary device attributes, `CSI ? Ps ; … c` (4 in the list: sixel).
    case primaryAttributes([Int])
    /// A kitty graphics reply, `ESC _ G keys ; message ESC \`: the image id
    /// (nil if none) and its message (`OK`, or an error such as `ENOSPC:…`).
    case kittyGraphics(id: Int?, message: String)
    /// `CSI 4 ; height ; width t`: the text area in pixels.
    case textAreaPixels(width: Int, height: Int)
    /// `CSI 6 ; height ; width t`: one cell in pixels.
    case cellPixels(width: Int, height: Int)
    /// `CSI 8 ; rows ; columns t`: the text area in cells.
    case textAreaCells(columns: Int, rows: Int)
    /// XTSMGRAPHICS, `CSI ? item ; status ; values… S` (item 1: colour
    /// registers, 2: sixel geometry; status 0 is success).
    case graphicsAttribute(item: Int, status: Int, values: [Int])
    /// XTGETTCAP, `DCS 1 + r name = value ST` (value "" for a boolean) or
    /// `DCS 0 + r [name] ST` (unknown: value nil, name "" if not repeated),
    /// decoded from hex.
    case termcap(name: String, value: String?)
    /// DECRQSS, `DCS 1 $ r text ST` (valid) or `DCS 0 $ r text ST` (invalid).
    case statusString(valid: Bool, text: String)
    /// DECRPM, `CSI ? mode ; value $ y`.
    case modeReport(mode: Int, value: Int)
    /// DECXCPR, `CSI ? row ; column [; page] R`: the cursor, 1-based.
    case cursorPosition(row: Int, column: Int)
    /// XTVERSION, `DCS > | text ST`: the terminal's name and version
    /// (`kitty(0.35.2)`, `XTerm(390)`), where no variable reaches (ssh, sudo).
    case terminalVersion(String)
}

extension TerminalReply {
    var isKittyGraphics: Bool {
        if case .kittyGraphics = self { return true }
        return false
    }
}
