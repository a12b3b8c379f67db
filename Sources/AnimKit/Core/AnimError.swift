/// The one error type AnimKit throws.
///
/// An error says where (the file, or a label such as `<memory>` or
/// `<stdin>`; the frame and byte offset when they are known) and what: a
/// typed ``problem`` whose kind is ``code``. A client decides on `code`
/// (or on a problem type it knows, such as ``LimitExceeded``), never on the
/// message: `description` is the one line the command line prints.
///
/// A struct, not an enum, so that 2.x can add kinds of problem without
/// breaking a client's `switch`: ``Code`` is a struct with named constants,
/// and each format declares its problems in its own folder (`GIFProblem`,
/// `PNGProblem`, `WebPProblem`), which the shared code never names.
public struct AnimError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the error is about: its path, or a label.
    public let file: String
    /// The frame concerned, when one is.
    public let frame: Int?
    /// The byte offset in the file where the problem was found, when known.
    public let offset: Int?
    /// What is wrong, as a typed value.
    public let problem: any AnimProblem

    /// An error about `file` (at `frame` and `offset` when known).
    public init(file: String, frame: Int? = nil, offset: Int? = nil, _ problem: any AnimProblem) {
        self.file = file
        self.frame = frame
        self.offset = offset
        self.problem = problem
    }

    /// The kind of problem.
    public var code: Code { problem.code }

    /// The one-line message: the file, the frame and byte offset when known
    /// (for problems in the data), and the problem.
    public var description: String {
        guard code.locatesInData else { return "\(file): \(code.prefix)\(problem)" }
        var place = ""
        if let frame { place += " frame \(frame)" }
        if let offset { place += " at byte \(offset)" }
        return "\(file):\(place.isEmpty ? "" : place + ":") \(code.prefix)\(problem)"
    }

    /// Equal when the file, frame, offset and problem are.
    public static func == (a: AnimError, b: AnimError) -> Bool {
        a.file == b.file && a.frame == b.frame && a.offset == b.offset && AnyHashable(a.problem) == AnyHashable(b.problem)
    }

    /// The same error about displayed frame `frame` (codecs count GIF
    /// images, which may differ from displayed frames); errors not about
    /// the data keep theirs.
    func relabelled(frame: Int) -> AnimError {
        code.locatesInData ? AnimError(file: file, frame: frame, offset: offset, problem) : self
    }
}

extension AnimError {
    /// The kind of a problem: what a client switches on. New kinds may come
    /// in 2.x, so a `switch` over codes needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case truncated, malformed, unsupported, limitExceeded, library, io, frameOutOfRange }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The data ends before the structure it started was complete.
        public static let truncated = Code(.truncated)
        /// The data breaks a rule of its format, or a caller's value is wrong.
        public static let malformed = Code(.malformed)
        /// The bytes are not a format AnimKit reads, or ask for what it does not do.
        public static let unsupported = Code(.unsupported)
        /// Decoding would go past a limit (``LimitExceeded``); nothing was allocated.
        public static let limitExceeded = Code(.limitExceeded)
        /// A C library reported an error (``LibraryFailure``).
        public static let library = Code(.library)
        /// Reading or writing a file failed (``IOFailure``).
        public static let io = Code(.io)
        /// A frame index outside `0..<frameCount` was asked for.
        public static let frameOutOfRange = Code(.frameOutOfRange)

        /// The code's name, as written here.
        public var description: String { kind.rawValue }

        /// Whether the message gives the frame and byte offset.
        var locatesInData: Bool { kind == .truncated || kind == .malformed || kind == .library }

        /// The word the message puts before the problem.
        var prefix: String {
            switch kind {
            case .truncated: return "truncated: "
            case .unsupported: return "unsupported: "
            default: return ""
            }
        }
    }
}
