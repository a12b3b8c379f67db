import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh temporary directory, removed with everything in it when dropped.
public final class TempDirectory {
    public let path: String
    public var url: URL { URL(fileURLWithPath: path) }

    /// `/tmp/PREFIX-XXXXXX`, made by `mkdtemp`.
    public init(prefix: String = "anim-test") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(cString: p)
    }

    /// The path of `name` (relative) inside.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` (relative), making its directories, with `mode`.
    public func write(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws {
        let full = file(name)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        guard chmod(full, mode) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// A new directory under the system's temporary one, named `PREFIX-UUID`, left in place.
    public static func make(prefix: String = "anim-test") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
