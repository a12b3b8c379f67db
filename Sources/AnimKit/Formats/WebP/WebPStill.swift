import CWebP

/// A still WebP of one image, as `anim extract` writes a frame.
package enum WebPStill {
    /// A still lossless WebP with the exact RGBA values (`exact`: the colour
    /// under transparent pixels kept, as the other formats keep it).
    package static func lossless(_ image: RGBAImage) throws -> [UInt8] {
        var config = WebPConfig()
        var picture = WebPPicture()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, 75, WEBP_ENCODER_ABI_VERSION) != 0,
            WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0
        else { throw AnimError.libwebp("version mismatch", file: "<output>") }
        config.lossless = 1
        config.exact = 1
        config.method = 0  // the fastest: frames out, not archives (`anim convert` compresses harder)
        config.quality = 25
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        WebPMemoryWriterInit(writer)
        defer {
            WebPPictureFree(&picture)
            WebPMemoryWriterClear(writer)
            writer.deallocate()
        }
        guard picture.importing(image) else { throw AnimError.libwebp("out of memory", file: "<output>") }
        picture.writer = WebPMemoryWrite
        picture.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(&config, &picture) != 0 else {
            throw AnimError.libwebp("encoding failed (error \(picture.error_code.rawValue))", file: "<output>")
        }
        return Array(UnsafeBufferPointer(start: writer.pointee.mem, count: writer.pointee.size))
    }
}

extension WebPPicture {
    /// Imports `image` as ARGB; false when libwebp runs out of memory.
    mutating func importing(_ image: RGBAImage) -> Bool {
        use_argb = 1
        width = Int32(image.width)
        height = Int32(image.height)
        return image.pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&self, $0.baseAddress, Int32(image.width * 4)) } != 0
    }
}
