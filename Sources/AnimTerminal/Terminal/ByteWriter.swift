/// Bytes written through a pointer into memory sized beforehand (a sixel
/// band: `SixelEncoder.bandBound`; text cells: `ByteBuffer` makes room):
/// an array's append checks its capacity and uniqueness on every byte.
struct ByteWriter {
    var p: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { p = start }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        p.pointee = b
        p += 1
    }

    /// The decimal digits of `value` (≥ 0).
    @inline(__always)
    mutating func decimal(_ value: Int) {
        if value < 10 {
            byte(0x30 + UInt8(value))
            return
        }
        var digits = 1
        var v = value
        while v >= 10 {
            v /= 10
            digits += 1
        }
        var q = p + digits
        p = q
        v = value
        repeat {
            q -= 1
            q.pointee = 0x30 + UInt8(v % 10)
            v /= 10
        } while v > 0
    }

    @inline(__always)
    mutating func bytes(_ more: UnsafeBufferPointer<UInt8>) {
        guard let from = more.baseAddress else { return }
        p.update(from: from, count: more.count)
        p += more.count
    }
}
