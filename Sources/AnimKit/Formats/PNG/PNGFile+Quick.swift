extension PNGFile {
    /// `image` as a PNG made for speed: deflated by libdeflate at `level`
    /// (1–12); as palette indices (unfiltered, `PLTE` and `tRNS`) when it
    /// has at most 256 colours and `palette` allows, else as RGB when every
    /// pixel is opaque, else RGBA, the rows filtered by `filter` 0–4 (nil:
    /// chosen per row). For terminal graphics, where a frame is encoded
    /// while it is due: a GIF's frame is a third of its RGB size or less.
    public static func encodeQuick(
        _ image: RGBAImage, level: Int = 4, filter: Int? = nil,
        palette: Bool = true
    ) -> [UInt8]? {
        if palette, let exact = ExactPalette(image) {
            return encodeIndexed(exact, width: image.width, height: image.height, level: level)
        }
        let opaque = image.isOpaque(in: Rect(x: 0, y: 0, width: image.width, height: image.height), width: image.width)
        return opaque
            ? encodeRows(image.channels([0, 1, 2]), image, channels: 3, colorType: 2, level: level, filter: filter)
            : encodeRows(image.pixels, image, channels: 4, colorType: 6, level: level, filter: filter)
    }

    static func encodeIndexed(_ exact: ExactPalette, width: Int, height: Int, level: Int) -> [UInt8]? {
        guard
            let idat = exact.indices.withUnsafeBytes({
                PNGBridge.deflate(pixels: $0, width: width, height: height, channels: 1, level: level, search: false)
            })
        else { return nil }
        var (plte, trns) = Palette.chunks(exact.colors, entries: exact.colors.count)
        // tRNS up to the last colour that is not opaque (none when all are).
        while trns.last == 255 { trns.removeLast() }
        var extra: [(PNGChunkType, [UInt8])] = [(.PLTE, plte)]
        if !trns.isEmpty { extra.append((.tRNS, trns)) }
        return assemble(width: width, height: height, colorType: 3, extra: extra, idat: idat)
    }

    /// Signature, IHDR (8 bits a sample), `extra` chunks, IDAT, IEND.
    static func assemble(
        width: Int, height: Int, colorType: UInt8, extra: [(PNGChunkType, [UInt8])],
        idat: [UInt8]
    ) -> [UInt8] {
        var out = PNGChunk.signature
        out.reserveCapacity(idat.count + 64 + extra.reduce(0) { $0 + $1.1.count + 12 })
        PNGChunk.append(.IHDR, PNGChunk.ihdr(width: width, height: height, colorType: colorType), to: &out)
        for (type, data) in extra { PNGChunk.append(type, data, to: &out) }
        PNGChunk.append(.IDAT, idat, to: &out)
        PNGChunk.append(.IEND, [], to: &out)
        return out
    }
}
