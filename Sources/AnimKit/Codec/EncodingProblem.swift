/// Problems in writing an animation: a call out of order, a frame or an
/// option the output cannot take, an output that cannot be read back.
public enum EncodingProblem: AnimProblem {
    /// `finish()` before any frame was added.
    case noFrame
    /// A call after `finish()`.
    case alreadyFinished
    /// A call after an earlier call failed, or after `cancel()`.
    case failedEarlier
    /// A frame of another size than frame 0's.
    case frameSize(width: Int, height: Int, firstWidth: Int, firstHeight: Int)
    /// Frame 0's size is outside 1…65535 on a side.
    case canvasSize(width: Int, height: Int)
    /// The path's extension names no format written
    /// (``ImageDestination/init(path:format:options:)``).
    case unknownExtension
    /// APNG written to an output that cannot seek, without
    /// ``EncodingOptions/frameCount``.
    case needsFrameCount
    /// An output ended before what a rewrite in place had to read back.
    case outputEndsEarly
    /// ``EncodingOptions/quality`` outside 0–100.
    case quality(Int)
    /// ``EncodingOptions/effort`` outside 0–9.
    case effort(Int)
    /// The GIF colour count outside 2–256.
    case colors(Int)
    /// A play count `format` cannot store (it stores 0, forever, to `maximum`).
    case plays(Int, format: OutputFormat, maximum: Int)
    /// A negative WebP keyframe interval.
    case keyframeInterval(Int)
    /// A negative default duration.
    case defaultDuration(Duration)
    /// A frame count below 1.
    case frameCount(Int)
    /// A negative frame duration.
    case negativeDuration(Duration)

    /// Which kind of problem this is.
    public var code: AnimError.Code {
        switch self {
        case .noFrame, .alreadyFinished, .failedEarlier, .frameSize, .outputEndsEarly, .negativeDuration: return .malformed
        default: return .unsupported
        }
    }

    /// The problem in words, as messages give it.
    public var description: String {
        switch self {
        case .noFrame: return "no frame was added"
        case .alreadyFinished: return "the destination is already finished"
        case .failedEarlier: return "the destination failed or was cancelled earlier"
        case .frameSize(let w, let h, let w0, let h0): return "frame is \(w)x\(h), not \(w0)x\(h0) like frame 0"
        case .canvasSize(let w, let h): return "frame 0 is \(w)x\(h): sizes go from 1 to 65535"
        case .unknownExtension: return "cannot tell the format from the name: use .gif, .png, .apng or .webp"
        case .needsFrameCount:
            return "APNG to an output that cannot seek needs the frame count up front (EncodingOptions.frameCount)"
        case .outputEndsEarly: return "the output ends early"
        case .quality(let q): return "quality \(q) is outside 0–100"
        case .effort(let e): return "effort \(e) is outside 0–9"
        case .colors(let c): return "colours \(c) is outside 2–256"
        case .plays(let plays, let format, let most):
            return "\(format.rawValue.uppercased()) stores a play count from 0 (forever) to \(most), not \(plays)"
        case .keyframeInterval(let k): return "keyframe interval \(k) is negative (0: libwebp's default)"
        case .defaultDuration(let d): return "default duration \(d) is negative"
        case .frameCount(let n): return "frame count \(n) is not at least 1"
        case .negativeDuration(let d): return "the duration \(d) is negative"
        }
    }
}
