/// A PNG chunk's type: its four letters as one big-endian word, as
/// swift-png's `PNG.Chunk` has it, with a constant for each type anim
/// reads or writes. Code compares these, never the letters as text.
struct PNGChunkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The type of four ASCII letters.
    init(_ letters: StaticString) {
        precondition(letters.utf8CodeUnitCount == 4, "a chunk type has four letters")
        let p = letters.utf8Start
        rawValue = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }

    /// The four letters as stored.
    var bytes: [UInt8] { BigEndian.u32(rawValue) }

    var description: String { String(decoding: bytes, as: UTF8.self) }

    // Critical chunks (PNG 1.2 §4.1).
    static let IHDR = PNGChunkType("IHDR")
    static let PLTE = PNGChunkType("PLTE")
    static let IDAT = PNGChunkType("IDAT")
    static let IEND = PNGChunkType("IEND")
    // Animation (APNG 1.0).
    static let acTL = PNGChunkType("acTL")
    static let fcTL = PNGChunkType("fcTL")
    static let fdAT = PNGChunkType("fdAT")
    // Transparency and colour space (§4.2.1, §4.2.2).
    static let tRNS = PNGChunkType("tRNS")
    static let gAMA = PNGChunkType("gAMA")
    static let cHRM = PNGChunkType("cHRM")
    static let sRGB = PNGChunkType("sRGB")
    static let iCCP = PNGChunkType("iCCP")
    // Metadata (§4.2.3; eXIf from the PNG extensions 1.5).
    static let tEXt = PNGChunkType("tEXt")
    static let zTXt = PNGChunkType("zTXt")
    static let iTXt = PNGChunkType("iTXt")
    static let eXIf = PNGChunkType("eXIf")
}
