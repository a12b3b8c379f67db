/// Standard base64 (RFC 4648, with padding), without Foundation: the
/// embedded demo is stored in it, and terminal graphics protocols (kitty,
/// iTerm2) carry their pixels in it.
package enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Decodes `text`, skipping padding and any byte outside the alphabet.
    package static func decode(_ text: String) -> [UInt8] {
        var table = [UInt8](repeating: 255, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for c in text.utf8 {
            let v = table[Int(c)]
            if v == 255 { continue }  // padding and anything else
            buffer = buffer << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }

    /// Appends the base64 of `bytes` to `out`, written through a pointer
    /// into room made first (not an `append` a byte, which checks capacity
    /// and uniqueness each time).
    package static func encode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let n = bytes.count
        guard n > 0 else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: (n + 2) / 3 * 4))
        out.withUnsafeMutableBufferPointer { whole in
            alphabet.withUnsafeBufferPointer { a in
                let o = whole.baseAddress! + start
                let src = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var i = 0
                var k = 0
                while i + 3 <= n {
                    let v = UInt32(src[i]) << 16 | UInt32(src[i + 1]) << 8 | UInt32(src[i + 2])
                    o[k] = a[Int(v >> 18)]
                    o[k + 1] = a[Int(v >> 12 & 63)]
                    o[k + 2] = a[Int(v >> 6 & 63)]
                    o[k + 3] = a[Int(v & 63)]
                    i += 3
                    k += 4
                }
                let rest = n - i
                if rest > 0 {
                    let v = UInt32(src[i]) << 16 | (rest == 2 ? UInt32(src[i + 1]) << 8 : 0)
                    o[k] = a[Int(v >> 18)]
                    o[k + 1] = a[Int(v >> 12 & 63)]
                    o[k + 2] = rest == 2 ? a[Int(v >> 6 & 63)] : UInt8(ascii: "=")
                    o[k + 3] = UInt8(ascii: "=")
                }
            }
        }
    }

    /// The base64 of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        bytes.withUnsafeBytes { encode($0, into: &out) }
        return out
    }
}
