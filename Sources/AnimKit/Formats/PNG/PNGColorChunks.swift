/// The PNG colour chunks met while indexing (`APNGParser`).
struct PNGColorChunks: Equatable, Sendable {
    var sRGB = false
    var gamma: Double?
    var chromaticities: [Double]?

    /// Reads `gAMA`, `cHRM` or `sRGB` data; ignores a chunk of the wrong size
    /// or with a zero gamma, as libpng does.
    mutating func read(_ type: PNGChunkType, _ data: UnsafeRawBufferPointer) {
        func be32(_ i: Int) -> Double { Double(ByteReader.be32(data, i)) }
        switch type {
        case .sRGB where data.count == 1: sRGB = true
        case .gAMA where data.count == 4 && be32(0) > 0: gamma = gamma ?? be32(0) / 100_000
        case .cHRM where data.count == 32: chromaticities = chromaticities ?? (0..<8).map { be32($0 * 4) / 100_000 }
        default: break
        }
    }

    /// What the chunks say, with `icc` (an `iCCP` profile) first.
    func color(icc: [UInt8]?) -> EmbeddedColor? {
        if let icc { return .icc(icc) }
        if sRGB { return .sRGB }
        if let gamma { return .gamma(gamma, chromaticities: chromaticities) }
        return nil
    }
}
