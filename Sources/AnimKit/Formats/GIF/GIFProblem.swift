/// What can be wrong in a GIF: in the file read, or in an output being
/// rewritten in place (the frames reordered for size).
public enum GIFProblem: AnimProblem {
    /// The file ends inside the 13-byte header.
    case headerIncomplete
    /// The file ends inside the global colour table.
    case colorTableIncomplete
    /// The file ends before the trailer (0x3B).
    case endsBeforeTrailer
    /// The file ends inside an extension block.
    case endsInsideExtension
    /// The file ends inside an image's data.
    case endsInsideImageData
    /// A block begins with `introducer`, which GIF does not define.
    case unknownBlock(UInt8)
    /// Rewriting an output in place, what was written did not read back
    /// as it was written.
    case rewriting(Rewrite)

    /// What a rewrite in place found wrong in what was written.
    public enum Rewrite: Hashable, Sendable {
        /// The header has no global colour table of the size written.
        case noGlobalTable
        /// More images than were written.
        case moreImagesThanWritten
        /// A block began with this introducer.
        case unknownBlock(UInt8)
        /// An index past the local colour table.
        case indexPastLocalTable
        /// The image data does not decode.
        case imageDataDoesNotDecode
    }

    /// Which kind of problem this is.
    public var code: AnimError.Code {
        switch self {
        case .headerIncomplete, .colorTableIncomplete, .endsBeforeTrailer, .endsInsideExtension, .endsInsideImageData:
            return .truncated
        case .unknownBlock, .rewriting: return .malformed
        }
    }

    /// The problem in words, as messages give it.
    public var description: String {
        switch self {
        case .headerIncomplete: return "GIF header is incomplete"
        case .colorTableIncomplete: return "global colour table is incomplete"
        case .endsBeforeTrailer: return "the file ends before the GIF trailer"
        case .endsInsideExtension: return "the file ends inside an extension block"
        case .endsInsideImageData: return "the file ends inside image data"
        case .unknownBlock(let b): return "unknown GIF block 0x" + String(b, radix: 16, uppercase: true)
        case .rewriting(let what):
            switch what {
            case .noGlobalTable: return "rewriting: no global table"
            case .moreImagesThanWritten: return "rewriting: more images than written"
            case .unknownBlock(let b): return "rewriting: unknown block 0x\(String(b, radix: 16))"
            case .indexPastLocalTable: return "rewriting: index past the local table"
            case .imageDataDoesNotDecode: return "rewriting: the image data does not decode"
            }
        }
    }
}
