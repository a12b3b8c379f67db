extension Escape {
    /// The start of a sixel image, before `width;height`: P2 = 1, undrawn
    /// pixels keep what the screen shows; `"1;1` square pixels.
    static let sixelBegin: [UInt8] = [esc, 0x50] + Array("0;1;0q\"1;1;".utf8)

    /// ECH on each of `rows` rows: erases `columns` cells from 1-based
    /// (`row`, `column`) down, in the current background (and, in xterm and
    /// foot, the sixel pixels over them).
    static func eraseCells(row: Int, column: Int, rows: Int, columns: Int) -> [UInt8] {
        (0..<rows).flatMap { moveTo(row: row + $0, column: column) + csi("\(columns)X") }
    }

    /// A sixel image of one blank sixel: it draws nothing, but xterm keeps
    /// it as one of its 16 graphics (`SixelBackend`'s guards).
    static let sixelGuard: [UInt8] = sixelBegin + Array("1;1?".utf8) + stringTerminator
}
