import AnimKit

/// The escape sequences the player sends, by name: every byte of control
/// that reaches the terminal is built here (or, for a graphics protocol's
/// own commands, in that backend's folder), never as a literal elsewhere.
public enum Escape {
    /// ESC (0x1B), the byte every sequence begins with.
    public static let esc: UInt8 = 0x1B
    /// DEC mode 2026: the terminal holds what follows until `syncEnd`.
    public static let syncBegin: [UInt8] = csi("?2026h")
    /// Ends a synchronized update: the terminal shows what it held.
    public static let syncEnd: [UInt8] = csi("?2026l")
    /// Switches to the alternate screen (DEC mode 1049), saving the cursor.
    public static let alternateScreenOn: [UInt8] = csi("?1049h")
    /// Back to the main screen as it was, with the saved cursor.
    public static let alternateScreenOff: [UInt8] = csi("?1049l")
    /// Hides the cursor (DECTCEM off).
    public static let hideCursor: [UInt8] = csi("?25l")
    /// Shows the cursor again (DECTCEM on).
    public static let showCursor: [UInt8] = csi("?25h")
    /// SGR 0: the default colours and no attributes.
    public static let resetAttributes: [UInt8] = csi("0m")
    /// SGR 7: foreground and background swapped (the status line).
    public static let reverseVideo: [UInt8] = csi("7m")
    /// SGR 1: bold (titles).
    public static let bold: [UInt8] = csi("1m")
    /// Erases the whole screen (ED 2); the cursor stays where it is.
    public static let clearScreen: [UInt8] = csi("2J")
    /// Erases from the cursor to the end of its line (EL).
    public static let clearToEndOfLine: [UInt8] = csi("K")
    /// String terminator: ends a DCS, APC or OSC.
    public static let stringTerminator: [UInt8] = [esc, 0x5C]

    /// `ESC [ body`.
    public static func csi(_ body: String) -> [UInt8] { [esc, 0x5B] + Array(body.utf8) }

    /// Cursor to 1-based (`row`, `column`).
    public static func moveTo(row: Int, column: Int) -> [UInt8] { csi("\(row);\(column)H") }
    /// DECSC: save the cursor's position (and attributes).
    public static let saveCursor: [UInt8] = [esc, 0x37]
    /// DECRC: back to the position DECSC saved.
    public static let restoreCursor: [UInt8] = [esc, 0x38]

    // Queries (answered as `TerminalReply`s).
    /// Primary device attributes: every terminal answers (a round's sentinel).
    public static let queryPrimaryAttributes: [UInt8] = csi("c")
    /// DECXCPR: where the cursor is (`?`: unlike CPR, not a modified F3).
    public static let queryCursorPosition: [UInt8] = csi("?6n")
    /// CPR: where the cursor is, for terminals without DECXCPR (GNU screen).
    public static let queryPlainCursorPosition: [UInt8] = csi("6n")
    /// XTWINOPS 16: the cell size in pixels (`CSI 6 ; height ; width t`).
    public static let queryCellPixels: [UInt8] = csi("16t")
    /// XTWINOPS 14: the text area's size in pixels (`CSI 4 ; height ; width t`).
    public static let queryTextAreaPixels: [UInt8] = csi("14t")
    /// XTSMGRAPHICS: sixel colour registers, then sixel geometry (read).
    public static let querySixelRegisters: [UInt8] = csi("?1;1;0S")
    /// XTSMGRAPHICS: the largest sixel image the terminal takes, in pixels (read).
    public static let querySixelGeometry: [UInt8] = csi("?2;1;0S")

    /// kitty's graphics query: a 1×1 RGB image with id 31, never stored;
    /// answered `ESC _ G i=31;OK ESC \` by a kitty-graphics terminal.
    public static let queryKittyGraphics: [UInt8] =
        [esc, 0x5F] + Array("Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA".utf8) + stringTerminator
    /// kitty's graphics query by shared memory: the 1×1 image in the object
    /// `name` (`KittySharedMemory`), id 32; `OK` only where it was read.
    public static func queryKittySharedMemory(name: String) -> [UInt8] {
        var encoded: [UInt8] = []
        Array(name.utf8).withUnsafeBytes { Base64.encode($0, into: &encoded) }
        return [esc, 0x5F] + Array("Gi=32,s=1,v=1,a=q,t=s,f=24;".utf8) + encoded + stringTerminator
    }
    /// XTVERSION: the terminal's name and version (`DCS > | text ST`).
    public static let queryTerminalVersion: [UInt8] = csi(">0q")
    /// XTGETTCAP for the terminfo capability `name`, hex-encoded (`RGB` →
    /// `DCS + q 524742 ST`).
    public static func queryTermcap(_ name: String) -> [UInt8] {
        dcs("+q" + name.utf8.map { String($0, radix: 16, uppercase: true) }.joined())
    }
    /// Direct colour, asked by DECRQSS: a 24-bit foreground set, the SGR in
    /// force asked (`DCS $ q m ST`: `…38:2:1:2:3m` if kept), then reset.
    public static let queryDirectColour: [UInt8] = csi("38;2;1;2;3m") + dcs("$qm") + csi("0m")

    /// DCS `body` ST.
    public static func dcs(_ body: String) -> [UInt8] { [esc, 0x50] + Array(body.utf8) + stringTerminator }

    /// Wraps `bytes` for tmux's passthrough: DCS tmux; with ESCs doubled, ST.
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
