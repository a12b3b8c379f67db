#if canImport(Glibc)
import Glibc
#endif

/// Writes still PNG files (used by `anim extract`).
public enum PNGFile {
    /// The image as an 8-bit RGBA PNG.
    public static func encode(_ image: RGBAImage, compression: Int = 6) -> [UInt8]? {
        image.pixels.withUnsafeBytes { PNGBridge.encode(rgba: $0, width: image.width, height: image.height, compression: compression) }
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
    public static func makeDirectory(_ path: String) throws {
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

/// Whole-file writes that either complete or leave nothing behind.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileBytes.ioError(path, "create") }
        var ok = true
        bytes.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 { if errno == EINTR { continue }; ok = false; return }
                off += n
            }
        }
        let writeErrno = errno
        if close(fd) != 0 { ok = false }
        guard ok, rename(temp, path) == 0 else {
            let e = ok ? errno : writeErrno
            unlink(temp)
            throw AnimError.io(path: path, operation: "write", errno: e, message: String(cString: strerror(e)))
        }
    }
}
