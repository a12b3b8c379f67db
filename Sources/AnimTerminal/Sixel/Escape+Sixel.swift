extension Escape {
    /// The start of a sixel image up to its height: `DCS 0;1;0 q "1;1;`
    /// then width `;` height follow. P2 = 1: pixels the image does not draw
    /// keep what the screen shows (transparency); `"1;1` square pixels.
    static let sixelBegin: [UInt8] = [esc, 0x50] + Array("0;1;0q\"1;1;".utf8)

    /// ECH: erases `count` cells from the cursor on, with the current
    /// background colour (send `resetAttributes` first for the terminal's
    /// own); the cursor does not move. In xterm and foot this also erases
    /// the sixel pixels drawn over those cells (see `SixelBackend`).
    static func eraseCharacters(_ count: Int) -> [UInt8] { csi("\(count)X") }

    /// A sixel image of one blank sixel: it draws nothing, but xterm keeps
    /// it as a graphic (one of its 16), which `SixelBackend` uses to choose
    /// which graphic xterm drops next.
    static let sixelGuard: [UInt8] = sixelBegin + Array("1;1?".utf8) + stringTerminator
}
