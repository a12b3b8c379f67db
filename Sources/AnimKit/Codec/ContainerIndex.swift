/// What a container parser produces at open: everything but pixels.
struct ContainerIndex {
    var summary: ImageSummary
    var steps: [Step]
    /// Each displayed frame: the steps that draw it and the stored delay.
    var frames: [(steps: Range<Int>, delay: Duration)]
    var formula: BlendFormula
    var decoder: StepDecoder
    /// How many leading frames are final whatever bytes may follow: what an
    /// incremental source shows before its data is finished.
    var settledFrames: Int
    /// What the file says of its colour space (the ICC profile in
    /// `metadata` for GIF and WebP; PNG's colour chunks as well).
    var color: EmbeddedColor?

    init(
        format: ImageFormat, width: Int, height: Int, steps: [Step], frames: [(steps: Range<Int>, delay: Duration)],
        loopCount: Int?, plays: Plays, formula: BlendFormula, error: AnimError?, decoder: StepDecoder,
        settledFrames: Int, metadata: ImageMetadata = ImageMetadata(), warnings: [any AnimProblem] = [],
        color: EmbeddedColor? = nil
    ) {
        summary = ImageSummary(
            format: format, width: width, height: height, loopCount: loopCount, plays: plays, error: error,
            metadata: metadata, warnings: warnings)
        (self.steps, self.frames, self.formula, self.decoder) = (steps, frames, formula, decoder)
        (self.settledFrames, self.color) = (settledFrames, color)
    }
}
