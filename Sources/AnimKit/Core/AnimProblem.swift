#if canImport(Glibc)
    import Glibc
#endif

/// What is wrong with a file or a call, as a typed value: the payload of
/// an ``AnimError``, and what ``ImageSource/warnings`` lists (problems
/// that were tolerated).
///
/// Each problem type owns its message (`description`) and says which
/// ``AnimError/Code`` it is. Match a problem by its type and value
/// (`error.problem as? LimitExceeded`); a `switch` over a problem enum
/// needs a `default`, since 2.x may add cases.
public protocol AnimProblem: Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem this is.
    var code: AnimError.Code { get }
}

/// A C library reported an error, with its own message.
public struct LibraryFailure: AnimProblem {
    /// The library (`giflib`, `libwebp`, `libdeflate`, …).
    public let library: String
    /// What the library said, or what call failed.
    public let message: String

    /// A failure of `library`.
    public init(library: String, message: String) {
        self.library = library
        self.message = message
    }

    /// Which kind of problem this is.
    public var code: AnimError.Code { .library }
    /// The problem in words, as messages give it.
    public var description: String { "\(library): \(message)" }
}

/// Reading or writing a file failed.
public struct IOFailure: AnimProblem {
    /// What was being done: `read`, `write`, `rewind`, `open folder`, …
    public let operation: String
    /// The system's error number (0 where there is none).
    public let errno: Int32
    /// What went wrong, in words (`strerror`'s where there is an errno).
    public let message: String

    /// A failed `operation`.
    public init(operation: String, errno: Int32, message: String) {
        self.operation = operation
        self.errno = errno
        self.message = message
    }

    /// A failed `operation`, in the words of `strerror(errno)`.
    public init(operation: String, errno: Int32) {
        self.init(operation: operation, errno: errno, message: String(cString: strerror(errno)))
    }

    /// Which kind of problem this is.
    public var code: AnimError.Code { .io }
    /// The problem in words, as messages give it.
    public var description: String { "cannot \(operation): \(message) (errno \(errno))" }
}

/// Problems that belong to no format: the file as a whole, a caller's
/// value, a frame asked for.
public enum CommonProblem: AnimProblem {
    /// The file has no bytes.
    case emptyFile
    /// The file ends inside the signature of its format.
    case endsInsideSignature
    /// The canvas has no pixels.
    case emptyCanvas(width: Int, height: Int)
    /// The bytes begin with no signature AnimKit reads.
    case unknownFormat
    /// The file was truncated while it was read (its mapping read zeros
    /// past the new end).
    case fileChanged
    /// A stream ended before any byte came.
    case noData
    /// A stream ended before its first frame was complete.
    case noCompleteFrame
    /// Frame `frame` was asked for of a file with `frameCount` frames.
    case frameOutOfRange(frame: Int, frameCount: Int)
    /// `bytes` of RGBA were given for a `width`×`height` image, which
    /// needs `needed` (nil: more than memory holds).
    case pixelCount(bytes: Int, width: Int, height: Int, needed: Int?)

    /// Which kind of problem this is.
    public var code: AnimError.Code {
        switch self {
        case .emptyFile, .endsInsideSignature, .noData, .noCompleteFrame: return .truncated
        case .unknownFormat: return .unsupported
        case .frameOutOfRange: return .frameOutOfRange
        case .emptyCanvas, .fileChanged, .pixelCount: return .malformed
        }
    }

    /// The problem in words, as messages give it.
    public var description: String {
        switch self {
        case .emptyFile: return "the file is empty"
        case .endsInsideSignature: return "the file ends inside its signature"
        case .emptyCanvas(let width, let height): return "canvas size \(width)x\(height) is empty"
        case .unknownFormat: return "not a GIF, PNG or WebP file"
        case .fileChanged: return "the file changed while it was read"
        case .noData: return "no data"
        case .noCompleteFrame: return "no complete frame yet"
        case .frameOutOfRange(let frame, let count):
            return "frame \(frame) is out of range (the file has \(count) frames)"
        case .pixelCount(let bytes, let width, let height, let needed):
            let size = needed.map { "\($0) bytes" } ?? "more bytes than memory holds"
            return "\(bytes) bytes of RGBA for \(width)x\(height), which needs \(size)"
        }
    }
}
