/// What a terminal cell shows: a glyph pattern and two colours.
///
/// Bit `i` of `mask` set: sub-pixel `i` (see `TextSymbols`) shows `fg`,
/// else `bg`. A `CellGrid` holds only `TextSymbols.canonical` forms, so
/// equal pictures are equal cells.
public struct Cell: Equatable, Hashable, Sendable {
    /// Which sub-pixels show `fg` (bits past the symbols' count are ignored).
    public var mask: UInt8
    /// The glyph's colour: never the terminal's default in canonical form.
    public var fg: TerminalColor
    /// The colour of the rest of the cell.
    public var bg: TerminalColor

    /// A cell as given (not made canonical).
    @inline(__always)
    public init(mask: UInt8, fg: TerminalColor, bg: TerminalColor) {
        self.mask = mask
        self.fg = fg
        self.bg = bg
    }

    /// A half-block cell of a `top` and a `bottom` colour, in canonical form.
    public init(top: TerminalColor, bottom: TerminalColor) {
        self = TextSymbols.half.canonical(Cell(mask: 0b01, fg: top, bg: bottom))
    }

    /// A cell all in one colour.
    public static func solid(_ color: TerminalColor) -> Cell { Cell(mask: 0, fg: color, bg: color) }

    /// The colour sub-pixel `index` shows.
    @inline(__always)
    public func color(at index: Int) -> TerminalColor { mask >> index & 1 != 0 ? fg : bg }
}
