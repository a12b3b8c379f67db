/// A cell colour: the terminal's default, or RGB.
public enum TerminalColor: Equatable, Hashable, Sendable {
    case terminalDefault
    case rgb(UInt8, UInt8, UInt8)
}
