/// What a container says of the image as a whole: format, canvas, loop,
/// metadata, and what went wrong. `FrameIndex` keeps it as indexed.
struct ImageSummary: Sendable {
    var format: ImageFormat
    var width: Int, height: Int
    /// The raw loop value in the file (nil when it has none).
    var loopCount: Int?
    var plays: Plays
    /// A problem after the last complete frame (truncation, corruption).
    var error: AnimError?
    /// Profile, EXIF, XMP and text found while indexing.
    var metadata = ImageMetadata()
    /// Problems that did not stop the file from showing as browsers show it.
    var warnings: [any AnimProblem] = []
}
