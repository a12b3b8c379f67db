/// Something the output format could not hold, and what was written
/// instead (`Transcoder.adjustments`, `TranscodeReport.adjustments`).
public enum TranscodeAdjustment: Equatable, Sendable, CustomStringConvertible {
    /// The source plays `plays` times, more than `format` can say: written
    /// as `writtenAs` (WebP counts to 65535 plays, GIF to 65536).
    case plays(Int, writtenAs: Int, format: OutputFormat)
    /// Metadata the format has no place for, in words ("EXIF (6573
    /// bytes)", as `ImageMetadata.lost(in:)` names it): left out.
    case notKept(String)

    /// The adjustment in words.
    public var description: String {
        switch self {
        case .plays(let n, let limit, let format):
            return "plays \(n) times, more than \(format.rawValue.uppercased()) can say: written as \(limit)"
        case .notKept(let what): return "not kept: " + what
        }
    }
}
