import AnimKit

/// What the command line finds wrong that the library does not: the
/// frame files of `anim encode`.
enum CommandProblem: AnimProblem {
    /// The folder holds no frame file.
    case noFrameFiles
    /// A frame file's size differs from the first one's.
    case frameFileSize(width: Int, height: Int, first: String, firstWidth: Int, firstHeight: Int)

    var code: AnimError.Code { .malformed }

    var description: String {
        switch self {
        case .noFrameFiles: return "no frames: no .png, .apng, .gif or .webp file in the folder"
        case .frameFileSize(let w, let h, let first, let w0, let h0): return "is \(w)x\(h), not \(w0)x\(h0) like \(first)"
        }
    }
}
