/// The parts of a compiled terminfo entry the probe reads: its names, the
/// number of colours, and the extended capabilities (`tic -x`), where
/// direct colour is declared as `RGB` (ncurses) or `Tc` (tmux).
///
/// Parsed from term(5)'s binary format, legacy (magic 0432) and 32-bit
/// (01036), every count and offset checked: a damaged or hostile file
/// gives nil or an entry without its damaged parts, never a crash.
public struct Terminfo: Equatable, Sendable {
    /// One extended capability's value.
    public enum Value: Equatable, Sendable {
        /// A boolean capability that is set.
        case flag
        /// A numeric capability (never negative: absent ones are left out).
        case number(Int)
        /// A string capability's bytes, without the NUL.
        case string([UInt8])
    }

    /// The entry's names (`xterm-kitty`, `KovIdTTY`).
    public var names: [String] = []
    /// `colors#`: how many colours the palette has, nil when absent.
    public var colors: Int?
    /// Extended capabilities present in the entry (false flags, absent and
    /// cancelled ones are left out).
    public var extended: [String: Value] = [:]

    /// An entry made by hand (tests, or a caller that knows better).
    public init(names: [String] = [], colors: Int? = nil, extended: [String: Value] = [:]) {
        self.names = names
        self.colors = colors
        self.extended = extended
    }

    /// Whether the entry declares 24-bit colour: `RGB` or `Tc`, of any type.
    public var hasDirectColor: Bool { extended["RGB"] != nil || extended["Tc"] != nil }

    /// The largest file read (ncurses': 32 KiB legacy, 128 KiB 32-bit).
    public static let maxFileBytes = 1 << 18
    /// Index of `colors` among the standard numbers.
    static let colorsIndex = 13

    /// Parses a compiled entry; nil when its header or standard part is damaged.
    public static func parse(_ bytes: [UInt8]) -> Terminfo? {
        guard bytes.count <= maxFileBytes else { return nil }
        var r = Reader(bytes: bytes)
        guard let magic = r.short() else { return nil }
        let numberSize: Int
        switch magic {
        case 0o432: numberSize = 2
        case 0o1036: numberSize = 4
        default: return nil
        }
        guard let nameSize = r.count(), let boolCount = r.count(), let numCount = r.count(),
            let strCount = r.count(), let tableSize = r.count(),
            let nameBytes = r.take(nameSize), r.skip(boolCount)
        else { return nil }
        var entry = Terminfo()
        let namesEnd = nameBytes.firstIndex(of: 0) ?? nameBytes.endIndex
        entry.names = nameBytes[..<namesEnd].split(separator: UInt8(ascii: "|")).map { String(decoding: $0, as: UTF8.self) }
        r.align()
        for i in 0..<numCount {
            guard let n = r.number(numberSize) else { return nil }
            if i == colorsIndex, n >= 0 { entry.colors = n }
        }
        guard r.skip(strCount * 2), r.skip(tableSize) else { return nil }
        r.align()
        entry.extended = extendedPart(&r, numberSize: numberSize) ?? [:]
        return entry
    }

    /// The extended section after the standard one; nil when absent or damaged.
    static func extendedPart(_ r: inout Reader, numberSize: Int) -> [String: Value]? {
        guard let boolCount = r.count(), let numCount = r.count(), let strCount = r.count(),
            let items = r.count(), let tableSize = r.count()
        else { return nil }
        let nameCount = boolCount + numCount + strCount
        guard items == strCount + nameCount else { return nil }
        guard let flags = r.take(boolCount) else { return nil }
        if boolCount % 2 == 1 { guard r.skip(1) else { return nil } }
        var numbers: [Int] = []
        for _ in 0..<numCount {
            guard let n = r.number(numberSize) else { return nil }
            numbers.append(n)
        }
        var valueOffsets: [Int] = []
        var nameOffsets: [Int] = []
        for i in 0..<items {
            guard let o = r.short() else { return nil }
            if i < strCount { valueOffsets.append(o) } else { nameOffsets.append(o) }
        }
        guard let table = r.take(tableSize) else { return nil }
        // Names follow the values: they start where the values' strings end.
        var values: [[UInt8]?] = []
        var namesBase = 0
        for o in valueOffsets {
            let s = o >= 0 ? cString(table, at: o) : nil
            if let s { namesBase += s.count + 1 }
            values.append(s)
        }
        var out: [String: Value] = [:]
        for (i, o) in nameOffsets.enumerated() {
            guard o >= 0, let nameBytes = cString(table, at: namesBase + o), !nameBytes.isEmpty else { return nil }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if i < boolCount {
                if flags[flags.startIndex + i] == 1 { out[name] = .flag }
            } else if i < boolCount + numCount {
                let n = numbers[i - boolCount]
                if n >= 0 { out[name] = .number(n) }
            } else if let s = values[i - boolCount - numCount] {
                out[name] = .string(s)
            }
        }
        return out
    }

    /// The NUL-terminated string at `offset` of `table`, or nil.
    static func cString(_ table: ArraySlice<UInt8>, at offset: Int) -> [UInt8]? {
        guard offset >= 0, offset < table.count else { return nil }
        let start = table.startIndex + offset
        guard let end = table[start...].firstIndex(of: 0) else { return nil }
        return Array(table[start..<end])
    }

    /// A cursor over the file, every read checked.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func short() -> Int? {
            guard offset + 2 <= bytes.count else { return nil }
            let v = Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
            offset += 2
            return Int(v)
        }

        /// A count: a short that is not negative.
        mutating func count() -> Int? { short().flatMap { $0 >= 0 ? $0 : nil } }

        mutating func number(_ size: Int) -> Int? {
            if size == 2 { return short() }
            guard offset + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(bytes[offset + k]) << (8 * k) }
            offset += 4
            return Int(Int32(bitPattern: v))
        }

        mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard n >= 0, offset + n <= bytes.count else { return nil }
            defer { offset += n }
            return bytes[offset..<(offset + n)]
        }

        mutating func skip(_ n: Int) -> Bool { take(n) != nil }

        /// To an even offset (sections start on one).
        mutating func align() { if offset % 2 == 1 { offset += 1 } }
    }
}
