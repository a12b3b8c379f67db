/// Splits what a terminal sends into replies to the probe's queries
/// (`TerminalReply`) and everything else, which is what the user typed.
///
/// Incremental: a reply may be split across reads at any byte; the
/// unfinished part (at most `maxStringBytes` and a few bytes) is held until
/// the next `feed`. Strict: a reply that does not match its exact grammar
/// (`TerminalReplyParser+Grammar.swift`) is dropped.
///
/// `other` gets, in order, every byte outside an escape sequence and every
/// sequence that is not a reply: keys (arrows, `ESC [ 1 ; 5 C`, `ESC O P`,
/// mouse reports, `ESC x` for Alt-x). A CSI is a reply when shaped like
/// one (a private marker `?`, `>` or `=`, the final `t`, or `$ y`); one
/// malformed or unknown is dropped, not passed on. APC, DCS and OSC
/// strings are replies when they start as every reply does (APC `G`, DCS
/// `0`, `1` or `>`, OSC a digit); otherwise `ESC _`, `ESC P`, `ESC ]` are
/// Alt keys.
///
/// Damaged input: an ESC inside a sequence drops it and starts a new one
/// (a reply after garbage is always found); CAN or SUB cancel; a C0
/// control or non-ASCII byte ends a CSI (dropped) and is kept as input; a
/// CSI past `maxControlBytes` or a string past `maxStringBytes` is skipped
/// to its end.
///
/// A lone ESC at the end of a read (the Esc key, or a reply in flight) is
/// held until the next `feed` or `flush()`, which the reader calls when
/// nothing came within its key timeout (`isHoldingSequence`).
public struct TerminalReplyParser: Sendable {
    /// The longest APC, DCS or OSC body kept.
    public static let maxStringBytes = 4096
    /// The longest CSI kept (parameter and intermediate bytes).
    public static let maxControlBytes = 256
    /// The largest number in a CSI reply.
    public static let maxNumber = 65535
    /// The most parameters in a CSI reply.
    public static let maxParameters = 32

    enum StringKind: Sendable {
        case apc, dcs, osc

        var introducer: UInt8 {
            switch self {
            case .apc: UInt8(ascii: "_")
            case .dcs: UInt8(ascii: "P")
            case .osc: UInt8(ascii: "]")
            }
        }

        /// Whether `b` can start the body of a reply of this kind.
        func accepts(_ b: UInt8) -> Bool {
            switch self {
            case .apc: b == UInt8(ascii: "G")
            case .dcs: b == UInt8(ascii: "0") || b == UInt8(ascii: "1") || b == UInt8(ascii: ">")
            case .osc: b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
            }
        }
    }

    enum State: Equatable, Sendable {
        case ground, escape, csi, csiSkip
        case intro(StringKind)
        case string(StringKind)
        case stringEscape(StringKind)
        case skip(StringKind)
        case skipEscape(StringKind)
    }

    static let esc: UInt8 = 0x1B
    static let bel: UInt8 = 0x07
    static let can: UInt8 = 0x18
    static let sub: UInt8 = 0x1A

    var state: State = .ground
    /// The CSI parameters and intermediates, or the string's body, being read.
    var buffer: [UInt8] = []

    /// Reads `CSI row ; column R` as the cursor's position, not as a key
    /// (modified F3): only for a round that asked CPR (`QueryPlan`).
    public var plainCursorPosition = false

    /// A parser holding nothing.
    public init() {}

    /// True when part of a sequence is held back: the reader should
    /// `flush()` if nothing arrives soon.
    public var isHoldingSequence: Bool { state != .ground }

    /// The replies the next bytes complete, and the bytes that are not replies.
    public mutating func feed(_ bytes: [UInt8]) -> (replies: [TerminalReply], other: [UInt8]) {
        var replies: [TerminalReply] = []
        var other: [UInt8] = []
        for b in bytes { step(b, &replies, &other) }
        return (replies, other)
    }

    /// Gives up on the sequence held back: a lone ESC, or ESC with `[`,
    /// `_`, `P` or `]`, comes out as input; a reply cut short is dropped.
    public mutating func flush() -> [UInt8] {
        defer {
            state = .ground
            buffer.removeAll(keepingCapacity: true)
        }
        switch state {
        case .escape: return [Self.esc]
        case .intro(let kind): return [Self.esc, kind.introducer]
        case .csi where buffer.isEmpty: return [Self.esc, UInt8(ascii: "[")]
        default: return []
        }
    }

    mutating func reset(_ to: State) {
        state = to
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func step(_ b: UInt8, _ replies: inout [TerminalReply], _ other: inout [UInt8]) {
        switch state {
        case .ground:
            if b == Self.esc { state = .escape } else { other.append(b) }
        case .escape:
            switch b {
            case UInt8(ascii: "["): reset(.csi)
            case UInt8(ascii: "_"): state = .intro(.apc)
            case UInt8(ascii: "P"): state = .intro(.dcs)
            case UInt8(ascii: "]"): state = .intro(.osc)
            case Self.esc: other.append(Self.esc)  // the first was a key
            default:
                other += [Self.esc, b]
                state = .ground
            }
        case .intro(let kind):
            if kind.accepts(b) {
                reset(.string(kind))
                buffer.append(b)
            } else {
                other += [Self.esc, kind.introducer]
                state = .ground
                step(b, &replies, &other)
            }
        case .string, .stringEscape, .skip, .skipEscape:
            stepString(b, &replies, &other)
        case .csi:
            stepControl(b, &replies, &other)
        case .csiSkip:
            if b >= 0x20 && b <= 0x3F { break }
            state = .ground
            if !(b >= 0x40 && b <= 0x7E || b == Self.can || b == Self.sub) { step(b, &replies, &other) }
        }
    }

    /// Inside an APC, DCS or OSC string, or skipping the rest of one.
    mutating func stepString(_ b: UInt8, _ replies: inout [TerminalReply], _ other: inout [UInt8]) {
        switch state {
        case .string(let kind), .skip(let kind):
            let skipping = state == .skip(kind)
            if b == Self.esc {
                state = skipping ? .skipEscape(kind) : .stringEscape(kind)
            } else if b == Self.can || b == Self.sub || (b == Self.bel && kind == .osc) {
                reset(.ground)  // cancelled, or an OSC ended (not a reply we read)
            } else if skipping {
                break
            } else if buffer.count >= Self.maxStringBytes {
                reset(.skip(kind))
            } else {
                buffer.append(b)
            }
        case .stringEscape(let kind), .skipEscape(let kind):
            if b == UInt8(ascii: "\\") {
                if state == .stringEscape(kind), let reply = Self.parseString(kind, buffer) { replies.append(reply) }
                reset(.ground)
            } else {
                reset(.escape)  // that ESC starts a new sequence
                if b != Self.esc { step(b, &replies, &other) }
            }
        default:
            break
        }
    }

    mutating func stepControl(_ b: UInt8, _ replies: inout [TerminalReply], _ other: inout [UInt8]) {
        if b >= 0x20 && b <= 0x3F {
            if buffer.count >= Self.maxControlBytes { reset(.csiSkip) } else { buffer.append(b) }
        } else if b >= 0x40 && b <= 0x7E {
            switch Self.parseControl(buffer, final: b, plainCursorPosition: plainCursorPosition) {
            case .reply(let reply): replies.append(reply)
            case .dropped: break
            case .input: other += [Self.esc, UInt8(ascii: "[")] + buffer + [b]
            }
            reset(.ground)
        } else if b == Self.esc {
            reset(.escape)
        } else if b == Self.can || b == Self.sub {
            reset(.ground)
        } else {
            reset(.ground)  // a control or non-ASCII byte ends it
            step(b, &replies, &other)
        }
    }
}
