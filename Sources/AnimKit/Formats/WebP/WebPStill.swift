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
        else { throw AnimError(file: "<output>", LibraryFailure(library: "libwebp", message: "version mismatch")) }
        config.lossless = 1
        config.exact = 1
        config.method = 0  // the fastest: frames out, not archives (`anim convert` compresses harder)
        config.quality = 25
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        WebPMemoryWriterInit(writer)
        defer {
            WebPPictureFree(&picture)
            WebPMemoryWriterClear(writer)
            writer.deallocate()
        }
        let imported = image.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else {
            throw AnimError(file: "<output>", LibraryFailure(library: "libwebp", message: "out of memory"))
        }
        picture.writer = WebPMemoryWrite
        picture.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(&config, &picture) != 0 else {
            throw AnimError(
                file: "<output>",
                LibraryFailure(library: "libwebp", message: "encoding failed (error \(picture.error_code.rawValue))"))
        }
        return Array(UnsafeBufferPointer(start: writer.pointee.mem, count: writer.pointee.size))
    }
}
