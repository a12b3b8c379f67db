/// What transparent pixels are drawn over.
public enum Background: Equatable, Sendable {
    /// The terminal's own background: pixels less than half opaque are not
    /// drawn, the others as if opaque (the default: right on any terminal).
    case none
    /// A solid colour, alpha-blended.
    case color(UInt8, UInt8, UInt8)
    /// A grey checkerboard of 4×4-pixel squares, alpha-blended.
    case checker

    /// Parses `none`, `checker` or `#rrggbb`.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "none": self = .none
        case "checker": self = .checker
        default:
            let hex = argument.hasPrefix("#") ? String(argument.dropFirst()) : argument
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
            self = .color(UInt8(v >> 16), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF))
        }
    }

    /// The colour shown for a pixel at (x, y) of colour r, g, b, a.
    @inline(__always)
    func compose(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, x: Int, y: Int) -> TerminalColor {
        if a == 255 { return .rgb(r, g, b) }
        let base: (Int, Int, Int)
        switch self {
        case .none: return a >= 128 ? .rgb(r, g, b) : .terminalDefault
        case .color(let br, let bg, let bb): base = (Int(br), Int(bg), Int(bb))
        case .checker: base = (x / 4 + y / 4) % 2 == 0 ? (153, 153, 153) : (102, 102, 102)
        }
        let al = Int(a)
        func mix(_ c: UInt8, _ k: Int) -> UInt8 { UInt8((Int(c) * al + k * (255 - al) + 127) / 255) }
        return .rgb(mix(r, base.0), mix(g, base.1), mix(b, base.2))
    }
}
