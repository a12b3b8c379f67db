/// What can be wrong in a PNG or APNG: in the file read (errors, and the
/// warnings of what was tolerated), or in an APNG being written.
public enum PNGProblem: AnimProblem {
    /// The file ends before its IEND chunk.
    case noIEND
    /// The file ends inside a chunk.
    case endsInsideChunk
    /// The first chunk is `chunk`, not IHDR.
    case firstChunkNotIHDR(chunk: String)
    /// The CRC of `chunk` does not match its bytes.
    case crcMismatch(chunk: String)
    /// A second IHDR chunk.
    case secondIHDR
    /// IHDR is not 13 bytes long.
    case headerLength
    /// IHDR's size is past PNG's 2³¹ − 1.
    case headerSize(width: UInt32, height: UInt32)
    /// IHDR's colour type, bit depth and interlace method are no valid combination.
    case headerFormat(colorType: UInt8, bitDepth: UInt8, interlace: UInt8)
    /// IDAT chunks with another chunk between them.
    case idatNotConsecutive
    /// An fdAT before any fcTL.
    case fdATWithoutFcTL
    /// `chunk` is too short for its sequence number.
    case chunkTooShort(chunk: String)
    /// `chunk`'s sequence number is `found`, not the `expected` next one.
    case sequenceNumber(chunk: String, found: Int, expected: Int)
    /// An fcTL is not 26 bytes long.
    case fcTLLength
    /// A frame's rectangle does not lie inside the canvas.
    case frameOutsideCanvas(rect: Rect, canvasWidth: Int, canvasHeight: Int)
    /// An fcTL's dispose or blend operation is not one APNG defines.
    case disposeOrBlend(dispose: UInt8, blend: UInt8)
    /// A second fcTL before the IDAT image.
    case secondFcTLBeforeIDAT
    /// The IDAT image's fcTL does not cover the whole canvas.
    case defaultImageFcTL
    /// A frame with no IDAT or fdAT data.
    case frameWithoutData
    /// No IHDR chunk.
    case noIHDR
    /// No IDAT chunk.
    case noIDAT
    /// acTL declares `declared` frames, the file has `found`.
    case frameCount(declared: Int, found: Int)
    /// No frame at all.
    case noFrames

    /// Warning: a second acTL, at byte `offset`, is ignored.
    case secondAcTL(offset: Int)
    /// Warning: the acTL at byte `offset` is not 8 bytes: the file shows as its still image.
    case acTLLength(offset: Int)
    /// Warning: the acTL at byte `offset` declares `frames`, out of range: the file shows as its still image.
    case acTLFrameCount(frames: UInt32, offset: Int)
    /// Warning: acTL declares `declared` frames; the fcTL at byte `offset` and those after it are ignored.
    case extraFrames(declared: Int, offset: Int)
    /// Warning: the fcTL at byte `offset` has no image data: its frame is skipped.
    case fcTLWithoutData(offset: Int)

    /// Writing: `written` frames were written, `announced` were announced in acTL.
    case framesWritten(written: Int, announced: Int)
    /// Writing: more frames than the `announced` count.
    case moreFramesThanAnnounced(announced: Int)
    /// Writing: a wider pixel format is needed, and the output cannot be read back.
    case cannotWiden

    /// Which kind of problem this is.
    public var code: AnimError.Code {
        switch self {
        case .noIEND, .endsInsideChunk: return .truncated
        default: return .malformed
        }
    }

    /// The problem in words, as messages give it.
    public var description: String {
        switch self {
        case .noIEND: return "no IEND chunk"
        case .endsInsideChunk: return "the file ends inside a chunk"
        case .firstChunkNotIHDR(let chunk): return "the first chunk is \(chunk), not IHDR"
        case .crcMismatch(let chunk): return "CRC mismatch in \(chunk) chunk"
        case .secondIHDR: return "a second IHDR chunk"
        case .headerLength: return "IHDR is not 13 bytes"
        case .headerSize(let w, let h): return "IHDR size \(w)x\(h) is too large"
        case .headerFormat(let ct, let depth, let il):
            return "IHDR has colour type \(ct) with bit depth \(depth), interlace \(il)"
        case .idatNotConsecutive: return "IDAT chunks are not consecutive"
        case .fdATWithoutFcTL: return "fdAT without a preceding fcTL"
        case .chunkTooShort(let chunk): return "\(chunk) is too short"
        case .sequenceNumber(let chunk, let found, let expected):
            return "\(chunk) sequence number \(found), expected \(expected)"
        case .fcTLLength: return "fcTL is not 26 bytes"
        case .frameOutsideCanvas(let r, let w, let h):
            return "frame \(r.width)x\(r.height)+\(r.x)+\(r.y) lies outside the \(w)x\(h) canvas"
        case .disposeOrBlend(let dop, let bop): return "fcTL dispose \(dop) or blend \(bop) is invalid"
        case .secondFcTLBeforeIDAT: return "a second fcTL before IDAT"
        case .defaultImageFcTL: return "the default image's fcTL does not match IHDR"
        case .frameWithoutData: return "frame has no image data (no IDAT or fdAT)"
        case .noIHDR: return "no IHDR chunk"
        case .noIDAT: return "no IDAT chunk"
        case .frameCount(let declared, let found): return "acTL declares \(declared) frames, the file has \(found)"
        case .noFrames: return "no frames"
        case .secondAcTL(let offset): return "a second acTL chunk at byte \(offset) is ignored"
        case .acTLLength(let offset):
            return "acTL is not 8 bytes at byte \(offset): the animation is ignored, the still image shown"
        case .acTLFrameCount(let n, let offset):
            return "acTL num_frames \(n) is out of range at byte \(offset): the animation is ignored, the still image shown"
        case .extraFrames(let n, let offset):
            return "acTL declares \(n) frame\(n == 1 ? "" : "s"): the fcTL at byte \(offset) and the frames after it are ignored"
        case .fcTLWithoutData(let offset): return "the fcTL at byte \(offset) has no image data: the frame is skipped"
        case .framesWritten(let written, let announced): return "\(written) frames written, \(announced) announced in acTL"
        case .moreFramesThanAnnounced(let n): return "more frames than the \(n) announced"
        case .cannotWiden: return "cannot widen the pixel format on an output that cannot be read back"
        }
    }
}
