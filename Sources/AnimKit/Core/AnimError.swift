/// The one error type AnimKit throws.
///
/// Every case carries values, not handles: the file (its path, or a label
/// such as `<memory>` or `<stdin>`), the frame when one is concerned, and the
/// byte offset where that helps to find the problem. `description` gives the
/// one-line message the CLI prints.
public enum AnimError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data ends before the structure it started was complete.
    case truncated(file: String, frame: Int?, offset: Int?, detail: String)
    /// The data breaks a rule of its format.
    case malformed(file: String, frame: Int?, offset: Int?, reason: String)
    /// The bytes are not a format AnimKit reads, or use a feature it does not.
    case unsupported(file: String, reason: String)
    /// Decoding would go past a configured limit; nothing was allocated.
    case limitExceeded(file: String, limit: String, value: Int, maximum: Int)
    /// A C library reported an error, with its own message.
    case library(file: String, frame: Int?, library: String, message: String)
    /// Reading or writing a file failed.
    case io(path: String, operation: String, errno: Int32, message: String)
    /// A frame index outside `0..<frameCount` was asked for.
    case frameOutOfRange(file: String, frame: Int, frameCount: Int)

    /// The one-line message: the file, the frame and byte offset when known,
    /// and the problem.
    public var description: String {
        switch self {
        case .truncated(let file, let frame, let offset, let detail):
            return "\(file):\(Self.place(frame, offset)) truncated: \(detail)"
        case .malformed(let file, let frame, let offset, let reason):
            return "\(file):\(Self.place(frame, offset)) \(reason)"
        case .unsupported(let file, let reason):
            return "\(file): unsupported: \(reason)"
        case .limitExceeded(let file, let limit, let value, let maximum):
            return "\(file): \(limit) \(value) exceeds the limit of \(maximum)"
                + " (raise it with DecodingLimits.\(limit))"
        case .library(let file, let frame, let library, let message):
            return "\(file):\(Self.place(frame, nil)) \(library): \(message)"
        case .io(let path, let operation, let errno, let message):
            return "\(path): cannot \(operation): \(message) (errno \(errno))"
        case .frameOutOfRange(let file, let frame, let frameCount):
            return "\(file): frame \(frame) is out of range (the file has \(frameCount) frames)"
        }
    }

    /// The frame this error concerns, when it concerns one.
    public var frame: Int? {
        switch self {
        case .truncated(_, let frame, _, _), .malformed(_, let frame, _, _),
            .library(_, let frame, _, _):
            return frame
        case .frameOutOfRange(_, let frame, _):
            return frame
        default:
            return nil
        }
    }

    private static func place(_ frame: Int?, _ offset: Int?) -> String {
        var s = ""
        if let frame { s += " frame \(frame)" }
        if let offset { s += " at byte \(offset)" }
        return s.isEmpty ? "" : s + ":"
    }
}

extension AnimError {
    /// The file was truncated while it was read (its mapping read zeros
    /// past the new end): `FILE: the file changed while it was read`.
    static func fileChanged(_ file: String, frame: Int?) -> AnimError {
        .malformed(file: file, frame: frame, offset: nil, reason: "the file changed while it was read")
    }
}
