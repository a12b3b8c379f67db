/// A chunk of a PNG file, located but not copied.
struct PNGChunk {
    /// Offset of the chunk's length field.
    var offset: Int
    var length: Int
    var type: PNGChunkType
    var dataOffset: Int { offset + 8 }
    var typeOffset: Int { offset + 4 }
    var end: Int { offset + 12 + length }

    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// An IHDR body: 8-bit samples unless `depth` says otherwise.
    static func ihdr(width: Int, height: Int, colorType: UInt8, depth: UInt8 = 8, interlace: UInt8 = 0) -> [UInt8] {
        BigEndian.u32(UInt32(width), UInt32(height)) + [depth, colorType, 0, 0, interlace]
    }

    /// Appends a whole chunk to `out`: length, type, `body`, CRC. The one
    /// chunk writer of every PNG anim writes (APNG frames, quick PNGs,
    /// metadata).
    static func append(_ type: PNGChunkType, _ body: [UInt8], to out: inout [UInt8]) {
        out += BigEndian.u32(UInt32(body.count))
        out += type.bytes
        out += body
        out += crcField(type, body)
    }

    /// The CRC field (4 bytes, big-endian) of a chunk of `type` and `body`.
    static func crcField(_ type: PNGChunkType, _ body: [UInt8]) -> [UInt8] {
        let typed = type.bytes
        let crc = body.withUnsafeBytes { PNGBridge.crc32($0, seed: typed.withUnsafeBytes { PNGBridge.crc32($0) }) }
        return BigEndian.u32(crc)
    }
}

/// Walks the chunks of a PNG.
struct PNGChunkWalker {
    let bytes: UnsafeRawBufferPointer
    var offset = 8

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    enum Next {
        case chunk(PNGChunk)
        case end
        case truncated(at: Int)
    }

    mutating func next() -> Next {
        if offset == bytes.count { return .end }
        guard bytes.count - offset >= 12 else { return .truncated(at: offset) }
        let length = Int(ByteReader.be32(bytes, offset))
        guard length <= 0x7FFF_FFFF, bytes.count - offset - 12 >= length else { return .truncated(at: offset) }
        let chunk = PNGChunk(offset: offset, length: length, type: PNGChunkType(rawValue: ByteReader.be32(bytes, offset + 4)))
        offset = chunk.end
        return .chunk(chunk)
    }

    /// True when the stored CRC matches the chunk's type and data.
    func crcMatches(_ c: PNGChunk) -> Bool {
        let covered = UnsafeRawBufferPointer(rebasing: bytes[c.typeOffset..<(c.dataOffset + c.length)])
        return PNGBridge.crc32(covered) == ByteReader.be32(bytes, c.dataOffset + c.length)
    }
}
