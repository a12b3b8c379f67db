#if canImport(Glibc)
    import Glibc
#endif

/// Writes still PNG files (used by `anim extract`).
public enum PNGFile {
    /// The image as an 8-bit RGBA PNG.
    public static func encode(_ image: RGBAImage, compression: Int = 6) -> [UInt8]? {
        image.pixels.withUnsafeBytes {
            PNGBridge.encode(rgba: $0, width: image.width, height: image.height, compression: compression)
        }
    }

    /// Writes `image` to `path` as a PNG: to a temporary file in the same
    /// folder, then renamed, so a failure never leaves a partial file.
    public static func write(_ image: RGBAImage, to path: String, compression: Int = 6) throws {
        guard let bytes = encode(image, compression: compression) else {
            throw AnimError.library(file: path, frame: nil, library: "libpng", message: "encoding failed")
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// Creates `path` and its parents if they do not exist.
    @_spi(AnimTools) public static func makeDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw FileBytes.ioError(prefix, "create directory")
            }
            prefix += "/"
        }
        var st = stat()
        if stat(path, &st) != 0 || (st.st_mode & S_IFMT) != S_IFDIR {
            throw AnimError.io(path: path, operation: "create directory", errno: ENOTDIR, message: "not a directory")
        }
    }
}

/// Whole-file writes that either complete or leave nothing behind (an
/// `OutputSink` on a temporary file, renamed into place).
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let sink = try OutputSink(path: path)
        do {
            try sink.write(bytes)
            try sink.commit()
        } catch {
            sink.abort()
            throw error
        }
    }
}
