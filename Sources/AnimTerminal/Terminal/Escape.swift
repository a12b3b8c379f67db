/// The escape sequences the player sends, by name: every byte of control
/// that reaches the terminal is built here (or, for a graphics protocol's
/// own commands, in that backend's folder), never as a literal elsewhere.
public enum Escape {
    public static let esc: UInt8 = 0x1B
    /// DEC mode 2026: the terminal holds what follows until `syncEnd` and
    /// shows it at once. Each `syncBegin` sent is closed by one `syncEnd`.
    public static let syncBegin: [UInt8] = csi("?2026h")
    public static let syncEnd: [UInt8] = csi("?2026l")
    public static let alternateScreenOn: [UInt8] = csi("?1049h")
    public static let alternateScreenOff: [UInt8] = csi("?1049l")
    public static let hideCursor: [UInt8] = csi("?25l")
    public static let showCursor: [UInt8] = csi("?25h")
    public static let resetAttributes: [UInt8] = csi("0m")
    public static let reverseVideo: [UInt8] = csi("7m")
    public static let clearScreen: [UInt8] = csi("2J")
    public static let clearToEndOfLine: [UInt8] = csi("K")
    public static let home: [UInt8] = csi("H")
    /// String terminator: ends a DCS, APC or OSC.
    public static let stringTerminator: [UInt8] = [esc, 0x5C]

    /// `ESC [ body`.
    public static func csi(_ body: String) -> [UInt8] { [esc, 0x5B] + Array(body.utf8) }

    /// Cursor to 1-based (`row`, `column`).
    public static func moveTo(row: Int, column: Int) -> [UInt8] { csi("\(row);\(column)H") }

    // Queries (answered as `TerminalReply`s).
    /// Primary device attributes: every terminal answers, so it closes a
    /// round of queries (a sentinel).
    public static let queryPrimaryAttributes: [UInt8] = csi("c")
    public static let queryCellPixels: [UInt8] = csi("16t")
    public static let queryTextAreaPixels: [UInt8] = csi("14t")
    /// XTSMGRAPHICS: sixel colour registers, then sixel geometry (read).
    public static let querySixelRegisters: [UInt8] = csi("?1;1;0S")
    public static let querySixelGeometry: [UInt8] = csi("?2;1;0S")

    /// DCS `body` ST.
    public static func dcs(_ body: String) -> [UInt8] { [esc, 0x50] + Array(body.utf8) + stringTerminator }

    /// Wraps `bytes` for tmux's passthrough (`allow-passthrough on`): DCS
    /// tmux; with every ESC doubled, ST.
    public static func tmuxPassthrough(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [esc, 0x50] + Array("tmux;".utf8)
        out.reserveCapacity(bytes.count + bytes.count / 16 + 10)
        for b in bytes {
            if b == esc { out.append(esc) }
            out.append(b)
        }
        out += stringTerminator
        return out
    }
}
