/// What can be wrong in a WebP: in the file read, or in what is asked of
/// the writer.
public enum WebPProblem: AnimProblem {
    /// The file ends inside the RIFF header or the chunks before the first frame.
    case headerIncomplete
    /// libwebp's demuxer finds no valid container.
    case notAContainer
    /// The file ends inside frame `frame`.
    case frameIncomplete(frame: Int)
    /// The file ends after the last complete frame.
    case endsEarly
    /// The file has no frame.
    case noFrame
    /// Writing: a canvas larger than WebP's `maximum` on a side.
    case canvasSize(width: Int, height: Int, maximum: Int)
    /// Writing: frame `frame` lasts longer than WebP's 2³¹ − 1 ms.
    case frameDuration(frame: Int, duration: Duration)

    /// Which kind of problem this is.
    public var code: AnimError.Code {
        switch self {
        case .headerIncomplete, .frameIncomplete, .endsEarly: return .truncated
        case .notAContainer, .noFrame: return .malformed
        case .canvasSize, .frameDuration: return .unsupported
        }
    }

    /// The problem in words, as messages give it.
    public var description: String {
        switch self {
        case .headerIncomplete: return "WebP header is incomplete"
        case .notAContainer: return "not a valid WebP container"
        case .frameIncomplete(let frame): return "frame \(frame) is incomplete"
        case .endsEarly: return "the WebP data ends early"
        case .noFrame: return "the WebP file has no frame"
        case .canvasSize(let w, let h, let most): return "frame 0 is \(w)x\(h): WebP canvases go up to \(most)x\(most)"
        case .frameDuration(let frame, let d): return "frame \(frame) lasts \(d); WebP frames last at most \(Int32.max) ms"
        }
    }
}

extension AnimError {
    /// libwebp failed, saying `message`.
    static func libwebp(_ message: String, file: String, frame: Int? = nil) -> AnimError {
        AnimError(file: file, frame: frame, LibraryFailure(library: "libwebp", message: message))
    }
}
