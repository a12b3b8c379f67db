/// What opening a file learns before any pixel is decoded: the canvas, the
/// loop count, the metadata, and each displayed frame's rectangle, timing,
/// disposal, blending and keyframe flag. A value: it may be kept, copied and
/// sent to other threads apart from its `ImageSource` (`ImageSource.index`).
public struct FrameIndex: Sendable {
    /// What the container says of the image as a whole.
    let summary: ImageSummary
    /// Every displayed frame, in order.
    public let frames: [FrameInfo]
    /// The format found in the bytes (`png` for a PNG without `acTL`).
    public var format: ImageFormat { summary.format }
    /// Canvas width in pixels.
    public var width: Int { summary.width }
    /// Canvas height in pixels.
    public var height: Int { summary.height }
    /// The loop value stored in the file: GIF's NETSCAPE2.0/ANIMEXTS1.0 value
    /// (nil when the file has no loop block), APNG's `num_plays`, WebP's loop
    /// count; nil for a still image.
    public var loopCount: Int? { summary.loopCount }
    /// How many times the animation plays, per the format's rules (GIF: no
    /// loop block plays once, 0 forever, N plays N+1 times).
    public var plays: Plays { summary.plays }
    /// What went wrong after the last complete frame, if anything.
    public var error: AnimError? { summary.error }
    /// The colour profile, EXIF, XMP and text the file carries.
    public var metadata: ImageMetadata { summary.metadata }
    /// Problems that did not stop the file from showing as browsers show
    /// it (an APNG whose `acTL` is invalid shows its still image; one with a
    /// second `acTL`, or an `fcTL` without data, plays as Chromium plays it).
    public var warnings: [any AnimProblem] { summary.warnings }

    /// The steps (GIF images, APNG or WebP frames) the codec decodes.
    let steps: [Step]
    /// For each displayed frame, the steps that draw it.
    let frameSteps: [Range<Int>]
    /// How the container blends a step over the canvas.
    let formula: BlendFormula
    /// For each step, the nearest keyframe step at or before it.
    let keyAtOrBefore: [Int]
    /// For each step, the frame it ends, or -1.
    let frameEndingAt: [Int]

    /// The index of `container`, frame durations per `policy`; `partial` keeps
    /// only the frames later bytes cannot change, and no error; without
    /// `incomplete`, a frame the file ends inside is left out.
    init(_ container: ContainerIndex, policy: DurationPolicy, partial: Bool, incomplete: Bool) {
        var container = container
        if partial {
            container.frames = Array(container.frames.prefix(container.settledFrames))
            container.summary.error = nil
        }
        if !incomplete {
            while let last = container.frames.last, !last.steps.allSatisfy({ container.steps[$0].isComplete }) {
                container.frames.removeLast()
            }
        }
        summary = container.summary
        steps = container.steps
        formula = container.formula
        frameSteps = container.frames.map(\.steps)
        frames = container.frames.enumerated().map { (i, f) in
            let group = f.steps.map { container.steps[$0] }
            let rect = group.reduce(Rect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.rect) }
            return FrameInfo(
                index: i, rect: rect, delay: f.delay, duration: policy.effective(f.delay),
                dispose: group.last?.dispose ?? .none, blend: group.first?.blend ?? .source,
                isKeyframe: group.first?.isKey ?? true, imageRange: f.steps,
                isComplete: group.allSatisfy(\.isComplete))
        }
        var key = 0
        keyAtOrBefore = container.steps.indices.map { i in
            if container.steps[i].isKey { key = i }
            return key
        }
        var ends = [Int](repeating: -1, count: container.steps.count)
        for (f, range) in container.frames.enumerated() { if let last = range.steps.last { ends[last] = f } }
        frameEndingAt = ends
    }
}
