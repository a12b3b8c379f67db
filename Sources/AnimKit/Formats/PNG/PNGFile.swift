#if canImport(Glibc)
    import Glibc
#endif

/// Writes still PNG files: `anim extract`'s frames and every other PNG
/// anim writes that is not an animation.
///
/// Made for speed: the rows filtered and deflated by libdeflate in one
/// call (`PNGFile+Fast.swift`), at a level that keeps up with the disk.
public enum PNGFile {
    /// The colour type a PNG is written in.
    public enum Color: String, Sendable, CaseIterable {
        /// 8-bit RGBA, whatever the pixels: what readers expect of frames.
        case rgba
        /// The smallest lossless one for the pixels: grey, palette (with
        /// `tRNS` for alpha), grey with alpha, RGB or RGBA.
        case auto
    }

    /// libdeflate's level for `encode` unless one is given: about the size
    /// of level 6 in a third of the time.
    public static let defaultLevel = 3

    /// Writes `image` to `path` as a PNG: to a temporary file in the same
    /// folder, then renamed, so a failure never leaves a partial file.
    public static func write(_ image: RGBAImage, to path: String, color: Color = .rgba, level: Int = defaultLevel) throws {
        guard let bytes = encode(image, color: color, level: level) else {
            throw AnimError(file: path, LibraryFailure(library: "libdeflate", message: "encoding failed"))
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// Creates `path` and its parents if they do not exist.
    package static func makeDirectory(_ path: String) throws {
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
            throw AnimError(file: path, IOFailure(operation: "create directory", errno: ENOTDIR, message: "not a directory"))
        }
    }
}
