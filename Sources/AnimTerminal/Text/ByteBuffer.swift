/// A growable byte buffer for terminal output (no String building).
struct ByteBuffer {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }
    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }
    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A non-negative integer in decimal.
    mutating func append(number: Int) {
        if number < 10 {
            bytes.append(UInt8(48 + number))
        } else if number < 100 {
            bytes.append(UInt8(48 + number / 10))
            bytes.append(UInt8(48 + number % 10))
        } else if number < 1000 {
            bytes.append(UInt8(48 + number / 100))
            bytes.append(UInt8(48 + number / 10 % 10))
            bytes.append(UInt8(48 + number % 10))
        } else {
            bytes.append(contentsOf: String(number).utf8)
        }
    }
}
