import AnimKit
#if canImport(Glibc)
import Glibc
#endif

/// Writes frames to an `ImageDestination` with a progress bar; on any
/// error the destination is abandoned (nothing left behind).
enum EncodeRun {
    static func write(count: Int, to out: String, format: OutputFormat, options: EncodingOptions, label: String,
                      frame: (Int) throws -> (RGBAImage, Duration?)) throws {
        let destination = try ImageDestination(path: out, format: format, options: options)
        var progress = Progress(total: count, label: label)
        defer { progress.end() }
        do {
            for i in 0..<count {
                let (image, duration) = try frame(i)
                try destination.add(image, duration: duration)
                progress.update(i + 1)
            }
            try destination.finish()
        } catch {
            destination.cancel()
            throw error
        }
    }
}

/// Checks on an output path before anything is written.
enum OutputPath {
    /// OUT must not be a folder, nor the same file as an input.
    static func check(_ out: String, notAnyOf inputs: [String]) throws {
        var st = stat()
        if stat(out, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            throw AnimError.io(path: out, operation: "write", errno: EISDIR, message: "is a folder")
        }
        guard stat(out, &st) == 0 else { return }      // a new file: not an input
        for input in inputs {
            var s = stat()
            if stat(input, &s) == 0 && s.st_dev == st.st_dev && s.st_ino == st.st_ino {
                throw AnimError.io(path: out, operation: "write", errno: EINVAL, message: "it is also an input (\(input))")
            }
        }
    }
}
