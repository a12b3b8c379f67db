extension PNGFile {
    /// `image` as a PNG made for speed: rows filtered per row and deflated
    /// by libdeflate at `level` (1–12), stored as RGB when every pixel is
    /// opaque; `filter` 0–4 filters every row alike (nil: chosen per row).
    /// For terminal graphics, where a frame is encoded while it is due.
    public static func encodeQuick(_ image: RGBAImage, level: Int = 4, filter: Int? = nil) -> [UInt8]? {
        let opaque = image.pixels.withUnsafeBufferPointer { px in
            stride(from: 3, to: px.count, by: 4).allSatisfy { px[$0] == 255 }
        }
        let channels = opaque ? 3 : 4
        var rows = image.pixels
        if opaque {
            rows = [UInt8](repeating: 0, count: image.width * image.height * 3)
            image.pixels.withUnsafeBufferPointer { src in
                rows.withUnsafeMutableBufferPointer { dst in
                    for i in 0..<(image.width * image.height) {
                        dst[i * 3] = src[i * 4]; dst[i * 3 + 1] = src[i * 4 + 1]; dst[i * 3 + 2] = src[i * 4 + 2]
                    }
                }
            }
        }
        guard let idat = rows.withUnsafeBytes({
            PNGBridge.deflate(pixels: $0, width: image.width, height: image.height, channels: channels,
                              level: level, search: false, filter: filter)
        }) else { return nil }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out.reserveCapacity(idat.count + 64)
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func chunk(_ type: String, _ data: [UInt8]) {
            let typed = Array(type.utf8) + data
            out += be32(data.count) + typed
            out += be32(Int(typed.withUnsafeBytes { PNGBridge.crc32($0) }))
        }
        chunk("IHDR", be32(image.width) + be32(image.height) + [8, opaque ? 2 : 6, 0, 0, 0])
        chunk("IDAT", idat)
        chunk("IEND", [])
        return out
    }
}
