/// One piece of a terminal's input, as `EscapeScanner` cuts it.
public enum EscapePiece: Equatable, Sendable {
    /// Bytes up to the next ESC.
    case text(ArraySlice<UInt8>)
    /// `ESC [ parameters final`.
    case csi(parameters: String, final: UInt8)
    /// A string sequence: `ESC P` (DCS), `ESC _` (APC) or `ESC ]` (OSC),
    /// its body up to the string terminator `ESC \` (an ESC doubled inside,
    /// as tmux's passthrough writes it, is no terminator), or for OSC up to BEL too.
    case string(introducer: UInt8, body: [UInt8])
    /// ESC and a byte that starts none of those.
    case escape(UInt8)
    /// ESC at the very end, or a sequence the input ends inside ("CSI", "DCS", "APC", "OSC").
    case unterminated(String)
}

/// Cuts a terminal's input into text and escape sequences: the one parser
/// under the tests' terminal models (text cells, kitty, sixel, iTerm2).
/// Each piece comes with the offset it starts at; after an `unterminated`
/// piece the scan ends.
public struct EscapeScanner: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var i = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A CSI's parameters as numbers (an empty or bad one: 0).
    public static func numbers(_ parameters: String) -> [Int] {
        parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
    }

    /// CUP's row and column, 1-based (0 or missing: 1).
    public static func cursor(_ parameters: String) -> (row: Int, column: Int) {
        let p = numbers(parameters)
        return (Swift.max(p.first ?? 1, 1), Swift.max(p.count > 1 ? p[1] : 1, 1))
    }

    public mutating func next() -> (offset: Int, piece: EscapePiece)? {
        guard i < bytes.count else { return nil }
        let start = i
        guard bytes[i] == 0x1B else {
            i = bytes[i...].firstIndex(of: 0x1B) ?? bytes.count
            return (start, .text(bytes[start..<i]))
        }
        guard i + 1 < bytes.count else {
            i = bytes.count
            return (start, .unterminated("ESC"))
        }
        let kind = bytes[i + 1]
        switch kind {
        case UInt8(ascii: "["):
            var j = i + 2
            while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
            guard j < bytes.count else { return end(start, "CSI") }
            i = j + 1
            return (start, .csi(parameters: String(decoding: bytes[(start + 2)..<j], as: UTF8.self), final: bytes[j]))
        case UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "]"):
            var j = i + 2
            var terminator = 0
            while j < bytes.count {
                if kind == UInt8(ascii: "]") && bytes[j] == 0x07 {
                    terminator = 1
                } else if bytes[j] == 0x1B && j + 1 < bytes.count && bytes[j + 1] == 0x5C {
                    terminator = 2
                }
                if terminator > 0 { break }
                j += bytes[j] == 0x1B ? 2 : 1
            }
            guard terminator > 0 else { return end(start, ["P": "DCS", "_": "APC"][Character(UnicodeScalar(kind))] ?? "OSC") }
            i = j + terminator
            return (start, .string(introducer: kind, body: Array(bytes[(start + 2)..<j])))
        default:
            i += 2
            return (start, .escape(kind))
        }
    }

    private mutating func end(_ start: Int, _ what: String) -> (offset: Int, piece: EscapePiece) {
        i = bytes.count
        return (start, .unterminated(what))
    }
}
