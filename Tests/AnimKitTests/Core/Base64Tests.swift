import Testing

@testable import AnimKit

/// Base64 against RFC 4648's test vectors (section 10), appended after
/// bytes already in the buffer, and decoded back.
struct Base64Tests {
    static let vectors = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: vectors)
    func rfc4648Vectors(_ vector: (String, String)) {
        var out = Array("x;".utf8)
        Array(vector.0.utf8).withUnsafeBytes { Base64.encode($0, into: &out) }
        #expect(String(decoding: out, as: UTF8.self) == "x;" + vector.1)
        #expect(Base64.decode(vector.1) == Array(vector.0.utf8))
    }

    @Test func everyByteValueRoundTrips() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        let encoded = Base64.encode(bytes)
        #expect(encoded.count == 1336)
        #expect(Base64.decode(String(decoding: encoded, as: UTF8.self)) == bytes)
    }
}
