/// Writes compiled terminfo entries in term(5)'s binary format, for the
/// tests of `Terminfo.parse` (and from them, garbage).
struct TerminfoBuilder {
    var names = "test|a test terminal"
    var bools: [Bool] = [true, false, true]
    /// Standard numbers; -1 is absent. Index 13 is `colors`.
    var numbers: [Int] = []
    var strings: [String?] = ["\u{1B}[H", nil, "\u{1B}[2J"]
    var extBools: [(String, Bool)] = []
    var extNumbers: [(String, Int)] = []
    var extStrings: [(String, String?)] = []
    /// The 32-bit number format (magic 01036).
    var wide = false

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        func short(_ v: Int) {
            let u = UInt16(bitPattern: Int16(v))
            out += [UInt8(u & 0xFF), UInt8(u >> 8)]
        }
        func number(_ v: Int) {
            if wide {
                let u = UInt32(bitPattern: Int32(v))
                out += (0..<4).map { UInt8((u >> (8 * $0)) & 0xFF) }
            } else {
                short(v)
            }
        }
        func pad() { if out.count % 2 == 1 { out.append(0) } }
        var table: [UInt8] = []
        var offsets: [Int] = []
        for s in strings {
            if let s {
                offsets.append(table.count)
                table += Array(s.utf8) + [0]
            } else {
                offsets.append(-1)
            }
        }
        let nameBytes = Array(names.utf8) + [0]
        for v in [wide ? 0o1036 : 0o432, nameBytes.count, bools.count, numbers.count, strings.count, table.count] { short(v) }
        out += nameBytes
        out += bools.map { $0 ? 1 : 0 }
        pad()
        numbers.forEach(number)
        offsets.forEach(short)
        out += table
        guard !(extBools.isEmpty && extNumbers.isEmpty && extStrings.isEmpty) else { return out }
        pad()
        var values: [UInt8] = []
        var valueOffsets: [Int] = []
        for (_, v) in extStrings {
            if let v {
                valueOffsets.append(values.count)
                values += Array(v.utf8) + [0]
            } else {
                valueOffsets.append(-1)
            }
        }
        var namesTable: [UInt8] = []
        var nameOffsets: [Int] = []
        for name in extBools.map(\.0) + extNumbers.map(\.0) + extStrings.map(\.0) {
            nameOffsets.append(namesTable.count)
            namesTable += Array(name.utf8) + [0]
        }
        let nameCount = extBools.count + extNumbers.count + extStrings.count
        for v in [
            extBools.count, extNumbers.count, extStrings.count, extStrings.count + nameCount, values.count + namesTable.count,
        ] { short(v) }
        out += extBools.map { $0.1 ? 1 : 0 }
        if extBools.count % 2 == 1 { out.append(0) }
        extNumbers.map(\.1).forEach(number)
        (valueOffsets + nameOffsets).forEach(short)
        out += values + namesTable
        return out
    }
}
