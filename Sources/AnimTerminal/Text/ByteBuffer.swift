/// A growable byte buffer for terminal output that writes through a
/// `ByteWriter`: a frame of text cells is tens of thousands of appends,
/// and an array's append checks its storage's uniqueness each time.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: count)) }

    /// Writes at most `bound` bytes through `write`.
    @inline(__always)
    private mutating func write(atMost bound: Int, _ write: (inout ByteWriter) -> Void) {
        if count + bound > capacity {
            let grown = max(capacity * 2, count + bound)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.update(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = grown
        }
        var w = ByteWriter(base + count)
        write(&w)
        count = w.p - base
    }

    mutating func append(_ byte: UInt8) { write(atMost: 1) { $0.byte(byte) } }

    mutating func append(_ more: [UInt8]) {
        more.withUnsafeBufferPointer { more in write(atMost: more.count) { $0.bytes(more) } }
    }

    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { more in write(atMost: more.count) { $0.bytes(more) } }
    }

    mutating func append(number: Int) {
        precondition(number >= 0, "a decimal number for the terminal is not negative")
        write(atMost: 20) { $0.decimal(number) }
    }
}
