/// A container format AnimKit reads, detected from the bytes.
public enum ImageFormat: String, Sendable {
    case gif
    /// A PNG without an animation control chunk: one frame.
    case png
    /// A PNG with `acTL`.
    case apng
    case webp

    /// The container family of `bytes`, from its signature; nil if unknown.
    /// PNG and APNG are told apart only after parsing the chunks.
    static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        func has(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + sig.count else { return false }
            for (i, b) in sig.enumerated() where bytes[offset + i] != b { return false }
            return true
        }
        if has(Array("GIF87a".utf8)) || has(Array("GIF89a".utf8)) { return .gif }
        if has([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if has(Array("RIFF".utf8)) && has(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    /// True when `bytes` are too few to tell, but could be the start of a
    /// GIF, PNG or WebP signature (more data may make them one).
    static func couldBeSignaturePrefix(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let signatures: [[UInt8?]] = [
            Array("GIF8".utf8) + [nil] + Array("a".utf8), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8),
        ]
        return signatures.contains { sig in
            bytes.count < sig.count && bytes.indices.allSatisfy { sig[$0] == nil || sig[$0] == bytes[$0] }
        }
    }
}
