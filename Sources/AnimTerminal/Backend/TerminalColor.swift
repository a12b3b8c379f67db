/// A cell colour: the terminal's default, or RGB.
public enum TerminalColor: Equatable, Hashable, Sendable {
    /// The terminal's own foreground or background colour.
    case terminalDefault
    /// A colour by its red, green and blue levels.
    case rgb(UInt8, UInt8, UInt8)
}
