extension PNGFile {
    /// The image as a PNG in `color`, deflated by libdeflate at `level`
    /// (1–12); palette rows unfiltered, the others each with the filter its
    /// sum of absolute differences favours.
    public static func encode(_ image: RGBAImage, color: Color = .rgba, level: Int = defaultLevel) -> [UInt8]? {
        guard image.width > 0, image.height > 0 else { return nil }
        guard color == .auto else { return encodeRows(image.pixels, image, channels: 4, colorType: 6, level: level) }
        let shape = PixelShape(image)
        if shape.grey && shape.opaque {
            return encodeRows(image.channels([0]), image, channels: 1, colorType: 0, level: level)
        }
        if let exact = ExactPalette(image) {
            return encodeIndexed(exact, width: image.width, height: image.height, level: level)
        }
        if shape.grey { return encodeRows(image.channels([0, 3]), image, channels: 2, colorType: 4, level: level) }
        if shape.opaque { return encodeRows(image.channels([0, 1, 2]), image, channels: 3, colorType: 2, level: level) }
        return encodeRows(image.pixels, image, channels: 4, colorType: 6, level: level)
    }

    /// `rows` (`channels` bytes a pixel of `image`) filtered by `filter`
    /// (nil: chosen per row) and deflated, as colour type `colorType`.
    static func encodeRows(
        _ rows: [UInt8], _ image: RGBAImage, channels: Int, colorType: UInt8, level: Int, filter: Int? = nil
    ) -> [UInt8]? {
        guard
            let idat = rows.withUnsafeBytes({
                PNGBridge.deflate(
                    pixels: $0, width: image.width, height: image.height, channels: channels, level: level,
                    search: false, filter: filter)
            })
        else { return nil }
        return assemble(width: image.width, height: image.height, colorType: colorType, extra: [], idat: idat)
    }
}

/// What one pass over the pixels finds: every pixel opaque, every pixel grey.
struct PixelShape {
    var opaque = true
    var grey = true

    init(_ image: RGBAImage) {
        image.pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            var alphaAnd: UInt32 = 0xFF00_0000
            var notGrey: UInt32 = 0
            for p in px {
                alphaAnd &= p
                let r = p & 0xFF
                notGrey |= (r ^ (p >> 8 & 0xFF)) | (r ^ (p >> 16 & 0xFF))
            }
            opaque = alphaAnd == 0xFF00_0000
            grey = notGrey == 0
        }
    }
}

extension RGBAImage {
    /// True when every pixel's alpha is 255.
    package var isOpaque: Bool {
        pixels.withUnsafeBytes { raw in
            var alphaAnd: UInt32 = 0xFF00_0000
            for p in raw.bindMemory(to: UInt32.self) { alphaAnd &= p }
            return alphaAnd == 0xFF00_0000
        }
    }

    /// The bytes of the channels `keep` (0 red … 3 alpha) of each pixel, in
    /// that order: grey is `[0]`, grey and alpha `[0, 3]`, RGB `[0, 1, 2]`.
    package func channels(_ keep: [Int]) -> [UInt8] {
        let n = width * height
        let k = keep.count
        return [UInt8](unsafeUninitializedCapacity: n * k) { out, initialized in
            pixels.withUnsafeBufferPointer { src in
                switch keep {
                case [0]: for i in 0..<n { out[i] = src[i * 4] }
                case [0, 1, 2]:
                    for i in 0..<n {
                        out[i * 3] = src[i * 4]
                        out[i * 3 + 1] = src[i * 4 + 1]
                        out[i * 3 + 2] = src[i * 4 + 2]
                    }
                case [0, 3]:
                    for i in 0..<n {
                        out[i * 2] = src[i * 4]
                        out[i * 2 + 1] = src[i * 4 + 3]
                    }
                default:
                    for i in 0..<n { for (j, c) in keep.enumerated() { out[i * k + j] = src[i * 4 + c] } }
                }
            }
            initialized = n * k
        }
    }
}
