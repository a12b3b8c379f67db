/// A cell colour: the terminal's default, or RGB.
public enum TerminalColor: Equatable, Hashable, Sendable {
    case terminalDefault
    case rgb(UInt8, UInt8, UInt8)
}

/// How colours are sent to the terminal.
public enum ColorMode: String, Sendable {
    /// 24-bit: `ESC[38;2;R;G;Bm`.
    case trueColor = "truecolor"
    /// The xterm 256-colour palette: `ESC[38;5;Nm`.
    case palette256 = "256"

    /// Truecolor when `COLORTERM` says so (truecolor or 24bit), else 256.
    public static func detect(environment: [String: String]) -> ColorMode {
        let value = environment["COLORTERM"]?.lowercased() ?? ""
        return value.contains("truecolor") || value.contains("24bit") ? .trueColor : .palette256
    }
}

/// The xterm 256-colour palette: the 6×6×6 cube (16–231) and the grey ramp
/// (232–255); the 16 system colours vary by terminal and are not used.
public enum XtermPalette {
    static let levels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The nearest palette index to an RGB colour.
    public static func index(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func cube(_ v: UInt8) -> Int {
            let v = Int(v)
            return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40
        }
        let (cr, cg, cb) = (cube(r), cube(g), cube(b))
        let cubeRGB = (levels[cr], levels[cg], levels[cb])
        let mean = (Int(r) + Int(g) + Int(b)) / 3
        let grey = mean > 238 ? 23 : max(0, (mean - 3) / 10)
        let greyValue = 8 + 10 * grey
        func dist(_ a: (Int, Int, Int)) -> Int {
            let dr = a.0 - Int(r), dg = a.1 - Int(g), db = a.2 - Int(b)
            return dr * dr + dg * dg + db * db
        }
        return dist((greyValue, greyValue, greyValue)) < dist(cubeRGB)
            ? UInt8(232 + grey) : UInt8(16 + 36 * cr + 6 * cg + cb)
    }

    /// The RGB of palette index `i` (16–255).
    public static func rgb(_ i: UInt8) -> (UInt8, UInt8, UInt8) {
        if i >= 232 { let v = UInt8(8 + 10 * (Int(i) - 232)); return (v, v, v) }
        let c = Int(i) - 16
        return (UInt8(levels[c / 36]), UInt8(levels[c / 6 % 6]), UInt8(levels[c % 6]))
    }

    /// The colour as the terminal will show it in `mode`.
    public static func shown(_ color: TerminalColor, mode: ColorMode) -> TerminalColor {
        guard mode == .palette256, case let .rgb(r, g, b) = color else { return color }
        let (pr, pg, pb) = rgb(index(r, g, b))
        return .rgb(pr, pg, pb)
    }
}
