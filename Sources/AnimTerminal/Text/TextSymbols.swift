/// Which block characters text cells are drawn with, and so how many
/// sub-pixels a cell has.
///
/// Each cell shows two colours: the glyph's ink and the background. Finer
/// symbols show more detail for about the same bytes but need a font (or
/// a terminal drawing them itself) that has them: quadrants are in every
/// monospace font, sextants are Unicode 13, octants Unicode 16.
///
/// Sub-pixel `i` of a cell is at column `i % across`, row `i / across`
/// (row-major from the top left), and bit `i` of a `Cell`'s mask says it
/// shows the foreground colour.
public enum TextSymbols: String, CaseIterable, Sendable {
    /// ▀ ▄ █ and space: 1×2 sub-pixels.
    case half
    /// The quadrant blocks ▘▝▖▗▚▞▙▛▜▟ with ▀▄▌▐█ and space: 2×2.
    case quadrant
    /// The sextants U+1FB00–U+1FB3B with ▌▐█ and space: 2×3.
    case sextant
    /// The octants U+1CD00–U+1CDE5 with 26 older block characters for the
    /// patterns those cover: 2×4.
    case octant

    /// The finest symbols a terminal draws (`--symbols auto`).
    public init(drawn: DrawnSymbols) {
        self = Self(rawValue: drawn.rawValue) ?? .half  // the same names
    }

    /// Sub-pixels across a cell.
    public var across: Int { self == .half ? 1 : 2 }

    /// Sub-pixels down a cell.
    public var down: Int {
        switch self {
        case .half, .quadrant: return 2
        case .sextant: return 3
        case .octant: return 4
        }
    }

    /// Sub-pixels per cell (2 to 8).
    public var count: Int { across * down }

    /// The mask with every sub-pixel set.
    public var fullMask: UInt8 { UInt8(truncatingIfNeeded: (1 << count) - 1) }

    /// The backend resolution these symbols draw at.
    public var resolution: BackendResolution { .cells(across: across, down: down) }

    /// The UTF-8 bytes of the glyph whose ink is `mask` (bits past `count`
    /// are ignored).
    @inline(__always)
    public func glyph(_ mask: UInt8) -> [UInt8] {
        switch self {
        case .half: return Self.halfGlyphs[Int(mask & 3)]
        case .quadrant: return Self.quadrantGlyphs[Int(mask & 15)]
        case .sextant: return Self.sextantGlyphs[Int(mask & 63)]
        case .octant: return Self.octantGlyphs[Int(mask)]
        }
    }

    /// The character whose ink is `mask`.
    public func character(_ mask: UInt8) -> Character {
        Character(String(decoding: glyph(mask), as: UTF8.self))
    }

    /// The one form of a cell among those showing the same picture: one
    /// colour is mask 0 with both colours equal; with two, the terminal's
    /// default (only ever a background) is not the foreground, and
    /// otherwise sub-pixel 0 shows the background.
    @inline(__always)
    public func canonical(_ cell: Cell) -> Cell {
        let full = fullMask
        let m = cell.mask & full
        if m == 0 || cell.fg == cell.bg { return Cell(mask: 0, fg: cell.bg, bg: cell.bg) }
        if m == full { return Cell(mask: 0, fg: cell.fg, bg: cell.fg) }
        if cell.bg == .terminalDefault { return Cell(mask: m, fg: cell.fg, bg: cell.bg) }
        if cell.fg == .terminalDefault || m & 1 != 0 { return Cell(mask: ~m & full, fg: cell.bg, bg: cell.fg) }
        return Cell(mask: m, fg: cell.fg, bg: cell.bg)
    }
}
