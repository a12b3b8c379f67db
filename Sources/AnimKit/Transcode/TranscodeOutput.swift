/// Where `Transcoder.write(to:)` writes.
public enum TranscodeOutput {
    /// Into memory: the report's `data` holds the file.
    case memory
    /// A file, through a temporary file renamed into place.
    case path(String)
    /// The destination `open` makes with the format and the options the
    /// transcode chose (a caller that registers its temporary file, or
    /// writes to a pipe).
    case destination(_ open: (OutputFormat, EncodingOptions) throws -> ImageDestination)

    func open(_ format: OutputFormat, _ options: EncodingOptions) throws -> ImageDestination {
        switch self {
        case .memory: return try ImageDestination(format: format, options: options)
        case .path(let path): return try ImageDestination(path: path, format: format, options: options)
        case .destination(let open): return try open(format, options)
        }
    }
}
