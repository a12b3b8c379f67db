/// A growable byte buffer for terminal output (no String building),
/// written through a pointer: a frame of text cells is tens of thousands
/// of appends of a few bytes, and an array's append checks its storage's
/// uniqueness each time.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes appended so far.
    var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `n` more bytes.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        let grown = max(capacity * 2, count + n)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ more: [UInt8]) {
        more.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { append($0) }
    }

    private mutating func append(_ more: UnsafeBufferPointer<UInt8>) {
        guard let from = more.baseAddress else { return }
        reserve(more.count)
        (base + count).update(from: from, count: more.count)
        count += more.count
    }

    /// A non-negative integer in decimal.
    mutating func append(number: Int) {
        guard number >= 0, number < 1000 else {
            append(Array(String(number).utf8))
            return
        }
        reserve(3)
        if number >= 100 {
            base[count] = UInt8(48 + number / 100)
            count += 1
        }
        if number >= 10 {
            base[count] = UInt8(48 + number / 10 % 10)
            count += 1
        }
        base[count] = UInt8(48 + number % 10)
        count += 1
    }
}
