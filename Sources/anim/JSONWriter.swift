/// A minimal JSON writer for the tool's output (no Foundation encoder, so
/// keys keep the documented order).
enum JSONValue {
    case int(Int)
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    var text: String {
        switch self {
        case .int(let v): return String(v)
        case .number(let v): return v.isFinite ? v.plain : "null"
        case .string(let s): return Self.quote(s)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let pairs):
            return "{" + pairs.map { Self.quote($0.0) + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

extension Duration {
    /// Milliseconds as a Double (exact for whole and fractional ms).
    var milliseconds: Double {
        let c = components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }
}
