/// The exact grammar of each reply: each function takes one complete
/// sequence and returns the reply, or nil (dropped) when it is not exactly one.
extension TerminalReplyParser {
    /// What a complete CSI sequence is.
    enum Control: Equatable {
        case reply(TerminalReply)
        /// Shaped like a reply, but malformed or not one we read.
        case dropped
        /// Not a reply: a key, a mouse report; passed on.
        case input
    }

    /// `body` is everything between `ESC [` and the final byte.
    static func parseControl(_ body: [UInt8], final: UInt8, plainCursorPosition: Bool = false) -> Control {
        let marker: UInt8? = body.first.flatMap { $0 >= 0x3C && $0 <= 0x3F ? $0 : nil }
        var end = body.count
        while end > 0, body[end - 1] >= 0x20, body[end - 1] <= 0x2F { end -= 1 }
        let intermediates = body[end...]
        let parameters = body[(marker == nil ? 0 : 1)..<end]
        let dollarY = final == UInt8(ascii: "y") && intermediates.elementsEqual([UInt8(ascii: "$")])
        let replyShaped =
            marker == UInt8(ascii: "?") || marker == UInt8(ascii: ">") || marker == UInt8(ascii: "=")
            || (marker == nil && final == UInt8(ascii: "t")) || dollarY
            || (plainCursorPosition && marker == nil && final == UInt8(ascii: "R") && intermediates.isEmpty)
        guard replyShaped else { return .input }
        guard let numbers = numbers(parameters) else { return .dropped }
        let reply: TerminalReply?
        switch (marker, final) {
        case (UInt8(ascii: "?"), UInt8(ascii: "c")) where intermediates.isEmpty:
            let present = numbers.compactMap { $0 }
            reply = present.isEmpty ? nil : .primaryAttributes(present)
        case (UInt8(ascii: "?"), UInt8(ascii: "S")) where intermediates.isEmpty:
            let present = numbers.compactMap { $0 }
            reply =
                present.count >= 2 && present.count == numbers.count
                ? .graphicsAttribute(item: present[0], status: present[1], values: Array(present.dropFirst(2))) : nil
        case (UInt8(ascii: "?"), UInt8(ascii: "y")) where dollarY:
            reply = numbers.count == 2 ? numbers[0].flatMap { m in numbers[1].map { .modeReport(mode: m, value: $0) } } : nil
        case (UInt8(ascii: "?"), UInt8(ascii: "R")) where intermediates.isEmpty && (numbers.count == 2 || numbers.count == 3),
            (nil, UInt8(ascii: "R")) where intermediates.isEmpty && numbers.count == 2:
            reply = numbers[0].flatMap { r in numbers[1].map { .cursorPosition(row: r, column: $0) } }
        case (nil, UInt8(ascii: "t")) where intermediates.isEmpty:
            reply = windowReport(numbers)
        default:
            reply = nil
        }
        return reply.map { .reply($0) } ?? .dropped
    }

    /// `CSI 4|6|8 ; a ; b t`: exactly three numbers.
    static func windowReport(_ numbers: [Int?]) -> TerminalReply? {
        guard numbers.count == 3, let kind = numbers[0], let a = numbers[1], let b = numbers[2] else { return nil }
        switch kind {
        case 4: return .textAreaPixels(width: b, height: a)
        case 6: return .cellPixels(width: b, height: a)
        case 8: return .textAreaCells(columns: b, rows: a)
        default: return nil
        }
    }

    /// Decimal parameters separated by `;` (an empty one is nil); nil for
    /// anything else (`:` sub-parameters, a marker in the middle), more
    /// than `maxParameters`, or a number above `maxNumber`.
    static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int?]? {
        var out: [Int?] = []
        var value: Int? = nil
        var digits = 0
        for b in bytes {
            if b == UInt8(ascii: ";") {
                out.append(value)
                guard out.count < maxParameters else { return nil }
                value = nil
                digits = 0
            } else if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                digits += 1
                value = (value ?? 0) * 10 + Int(b - UInt8(ascii: "0"))
                guard digits <= 5, value! <= maxNumber else { return nil }
            } else {
                return nil
            }
        }
        out.append(value)
        return out
    }

    /// The body of an APC, DCS or OSC string, without its introducer and
    /// terminator.
    static func parseString(_ kind: StringKind, _ body: [UInt8]) -> TerminalReply? {
        switch kind {
        case .apc: return kittyGraphics(body)
        case .dcs: return deviceControl(body)
        case .osc: return nil
        }
    }

    /// `G key=value,… ; message`: keys are one letter each, values decimal
    /// numbers of at most 32 bits, no key twice; the message printable.
    static func kittyGraphics(_ body: [UInt8]) -> TerminalReply? {
        guard body.first == UInt8(ascii: "G"), let semicolon = body.firstIndex(of: UInt8(ascii: ";")) else { return nil }
        guard let message = printable(body[(semicolon + 1)...]) else { return nil }
        var seen = Set<UInt8>()
        var id: Int?
        let keys = body[1..<semicolon]
        if !keys.isEmpty {
            for pair in keys.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                guard pair.count >= 3, pair[pair.startIndex + 1] == UInt8(ascii: "=") else { return nil }
                let key = pair[pair.startIndex]
                guard (key >= 0x41 && key <= 0x5A) || (key >= 0x61 && key <= 0x7A), seen.insert(key).inserted else { return nil }
                let digits = pair.dropFirst(2)
                guard digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
                let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                guard value <= Int(UInt32.max) else { return nil }
                if key == UInt8(ascii: "i") { id = value }
            }
        }
        return .kittyGraphics(id: id, message: message)
    }

    /// `>|text` (XTVERSION), `1+r hex[=hex]` / `0+r [hex]` (XTGETTCAP),
    /// `1$r text` / `0$r text` (DECRQSS).
    static func deviceControl(_ body: [UInt8]) -> TerminalReply? {
        guard body.count >= 2 else { return nil }
        let head = body[body.startIndex]
        let kind = body[body.startIndex + 1]
        if head == UInt8(ascii: ">") {
            guard kind == UInt8(ascii: "|"), body.count > 2, let text = printable(body[2...]) else { return nil }
            return .terminalVersion(text)
        }
        guard body.count >= 3, body[2] == UInt8(ascii: "r") else { return nil }
        let valid = head == UInt8(ascii: "1")
        let rest = body[3...]
        switch kind {
        case UInt8(ascii: "+"):
            let parts = rest.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = hexText(parts[0]) else { return nil }
            if !valid { return parts.count == 1 ? .termcap(name: name, value: nil) : nil }
            guard !name.isEmpty else { return nil }
            if parts.count == 1 { return .termcap(name: name, value: "") }
            guard let value = hexText(parts[1]) else { return nil }
            return .termcap(name: name, value: value)
        case UInt8(ascii: "$"):
            guard let text = printable(rest) else { return nil }
            return .statusString(valid: valid, text: text)
        default:
            return nil
        }
    }

    /// Printable ASCII (space to `~`) as a string, or nil.
    static func printable(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count <= maxStringBytes, bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Pairs of hex digits (either case) spelling printable ASCII, or nil.
    static func hexText(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard let hi = hexDigit(bytes[i]), let lo = hexDigit(bytes[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return printable(out[...])
    }

    static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
