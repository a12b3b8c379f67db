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
