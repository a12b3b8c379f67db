import AnimKit

/// What `anim extract` writes each frame as: a file per frame in a folder,
/// or one after the other on standard output (`-`).
enum ExtractFormat: String, CaseIterable {
    /// PNG, RGBA (or `--color auto`), libdeflate.
    case png
    /// Lossless WebP (libwebp), RGBA.
    case webp
    /// Netpbm PAM, `TUPLTYPE RGB_ALPHA`: on standard output a stream of
    /// them (ffmpeg's `-f pam_pipe`, Pillow and netpbm read it).
    case pam
    /// Netpbm PPM (P6): the colours, alpha dropped (the stored colour of a
    /// transparent pixel shows).
    case ppm
    /// Raw RGBA bytes, rows top to bottom, no header: `-f rawvideo
    /// -pix_fmt rgba -s WxH` for ffmpeg, `numpy.frombuffer` reshaped.
    case rgba

    var fileExtension: String { self == .rgba ? "rgba" : rawValue }

    /// The header a frame's RGBA bytes follow as they are, for the formats
    /// that need no encoding (raw RGBA, PAM); nil for the others.
    func rawHeader(width: Int, height: Int) -> [UInt8]? {
        switch self {
        case .rgba: return []
        case .pam: return Array("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        default: return nil
        }
    }

    /// The most memory one frame in flight holds, in bytes: its copy and
    /// what encoding it makes (PNG: the filtered rows and libdeflate's
    /// output; WebP: libwebp's lossless encoder), and the allocator's
    /// keeping of a freed frame on the worker's arena (`--max-memory`).
    func memoryPerFrame(width: Int, height: Int) -> Int {
        let pixels = max(width, 1).multipliedReportingOverflow(by: max(height, 1))
        guard !pixels.overflow, pixels.partialValue < Int.max / 64 else { return Int.max / 2 }
        let bytesPerPixel =
            switch self {
            case .png: 16
            case .webp: 28
            case .pam, .rgba: 12
            case .ppm: 11
            }
        return pixels.partialValue * bytesPerPixel
    }

    /// One frame's bytes; `color` and `level` (libdeflate's) apply to PNG.
    func encode(_ image: RGBAImage, color: PNGFile.Color, level: Int) throws -> [UInt8] {
        switch self {
        case .png:
            guard let bytes = PNGFile.encode(image, color: color, level: level) else {
                let message = "encoding a \(image.width)x\(image.height) frame failed"
                throw AnimError(file: "<output>", LibraryFailure(library: "PNG", message: message))
            }
            return bytes
        case .webp: return try WebPStill.lossless(image)
        case .pam: return rawHeader(width: image.width, height: image.height)! + image.pixels
        case .ppm: return Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.channels([0, 1, 2])
        case .rgba: return image.pixels
        }
    }
}
