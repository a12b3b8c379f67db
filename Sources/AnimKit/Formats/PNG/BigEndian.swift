/// Big-endian fields for chunk bodies.
enum BigEndian {
    static func u32(_ values: UInt32...) -> [UInt8] {
        values.flatMap { v in [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    }

    static func u16(_ values: UInt16...) -> [UInt8] { values.flatMap { v in [UInt8(v >> 8), UInt8(v & 0xFF)] } }
}
