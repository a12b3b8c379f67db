/// What a container parser produces at open: everything but pixels.
struct ContainerIndex {
    var format: ImageFormat
    var width: Int
    var height: Int
    var steps: [Step]
    /// Each displayed frame: the steps that draw it and the stored delay.
    var frames: [(steps: Range<Int>, delay: Duration)]
    /// The raw loop value in the file (nil when it has none).
    var loopCount: Int?
    var plays: Plays
    var formula: BlendFormula
    /// A problem after the last complete frame (truncation, corruption).
    var error: AnimError?
    var decoder: StepDecoder
    /// How many leading frames are final whatever bytes may follow: what an
    /// incremental source shows before its data is finished.
    var settledFrames: Int
    /// Profile, EXIF, XMP and text found while indexing.
    var metadata = ImageMetadata()
    /// Problems that did not stop the file from showing as browsers show it.
    var warnings: [String] = []
    /// What the file says of its colour space (the ICC profile in
    /// `metadata` for GIF and WebP; PNG's colour chunks as well).
    var color: EmbeddedColor?
}
