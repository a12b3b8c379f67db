/// Reads an animated (or still) GIF, PNG/APNG or WebP.
///
/// Opening parses the container and builds the frame index: canvas size,
/// loop count, and each frame's rectangle, delay, disposal, blending and
/// keyframe flag. No pixel is decoded until a frame is asked for. Frames are
/// composited on demand, from the nearest keyframe or from the canvas already
/// composited, whichever is closer, so reading frames in order decodes each
/// once and a seek never starts from frame 0 when a closer start exists.
///
/// The format comes from the bytes, never from the file name. Limits
/// (`DecodingLimits`) are checked before anything is allocated.
///
/// A file that is truncated or corrupt after some complete frames still
/// opens: `frames` holds what can be shown and `indexError` says what went
/// wrong after them. A frame the file ends inside (a GIF image cut short)
/// is listed with `isComplete` false, drawn as far as its data goes, as
/// browsers show it; every other frame in `frames` is whole.
///
/// An `ImageSource` may be used from several threads; frame decoding is
/// serialised inside.
///
/// `@unchecked Sendable`: the index (`frames`, sizes, format) is immutable; the
/// decoding state (canvas, compositor, prefetcher, checkpoints) is touched only
/// with `lock` held.
public final class ImageSource: @unchecked Sendable {
    /// The name used in messages: the path, or a label for in-memory data.
    public let name: String
    /// The format found in the bytes (`png` for a PNG without `acTL`).
    public let format: ImageFormat
    /// Canvas size in pixels.
    public let width: Int
    /// Canvas height in pixels.
    public let height: Int
    /// The size of the frames delivered: the canvas, or smaller with
    /// `DecodingOptions.fitIn`. Frame rectangles stay in canvas pixels.
    public let outputWidth: Int
    /// The height of the frames delivered.
    public let outputHeight: Int
    /// Every displayed frame, in order.
    public let frames: [FrameInfo]
    /// The loop value stored in the file: GIF's NETSCAPE2.0/ANIMEXTS1.0 value
    /// (nil when the file has no loop block), APNG's `num_plays`, WebP's loop
    /// count; nil for a still image.
    public let loopCount: Int?
    /// How many times the animation plays, per the format's rules (GIF: no
    /// loop block plays once, 0 forever, N plays N+1 times).
    public let plays: Plays
    /// What went wrong after the last complete frame, if anything.
    public let indexError: AnimError?
    /// The colour profile, EXIF, XMP and text the file carries.
    public let metadata: ImageMetadata
    /// The options the source was opened with.
    public let options: DecodingOptions

    let store: ByteStore
    let steps: [Step]
    let frameSteps: [Range<Int>]
    let decoder: StepDecoder
    let formula: BlendFormula
    /// For each step, the nearest keyframe step at or before it.
    let keyAtOrBefore: [Int]
    let lock = Lock()
    var compositor: Compositor?
    var patch: UnsafeMutableRawBufferPointer?
    /// A caller's buffer lent as the patch for one `withFrame` call.
    var scratchPatch: UnsafeMutableRawBufferPointer?
    let downsampler: Downsampler?
    var output: [UInt8] = []
    var stepsDecodedCount = 0
    var lastRequestedFrame = -1
    /// Where to keep and find checkpoints (set by `CachedFrameSource`).
    weak var checkpoints: FrameCache?
    /// A checkpoint is offered every this many steps after a keyframe.
    let checkpointInterval = 8
    /// For each step, the frame it ends, or -1.
    let frameEndingAt: [Int]
    let prefetcher: StepPrefetcher?

    /// Opens the file at `path`.
    public convenience init(path: String, options: DecodingOptions = DecodingOptions()) throws {
        try self.init(store: ByteStore.load(path: path, map: options.mapFiles), name: path, options: options)
    }

    /// A new source over the same bytes, indexed again, with its own
    /// decoding state: a second independent reader without a second copy.
    public func reopened(options: DecodingOptions? = nil) throws -> ImageSource {
        try ImageSource(store: store, name: name, options: options ?? self.options)
    }

    /// Opens in-memory bytes; `name` labels messages.
    public convenience init(
        data: some Collection<UInt8>, name: String = "<memory>",
        options: DecodingOptions = DecodingOptions()
    ) throws {
        try self.init(store: ByteStore(data), name: name, options: options)
    }

    /// `partial`: the bytes are a prefix of what will come; only settled
    /// frames are indexed and running out of data is not an error.
    init(store: ByteStore, name: String, options: DecodingOptions, partial: Bool = false) throws {
        if let size = options.resizeTo, size.width > 0, size.height > 0,
            size.width.multipliedReportingOverflow(by: size.height).partialValue > options.limits.maxCanvasPixels
                || size.width > 1 << 20 || size.height > 1 << 20
        {
            throw AnimError.limitExceeded(
                file: name, limit: "maxCanvasPixels", value: size.width.multipliedReportingOverflow(by: size.height).partialValue,
                maximum: options.limits.maxCanvasPixels)
        }
        var index: ContainerIndex
        switch ImageFormat.sniff(store.bytes) {
        case .gif?: index = try GIFContainer.index(store, file: name, limits: options.limits)
        case .png?, .apng?: index = try APNGContainer.index(store, file: name, limits: options.limits)
        case .webp?: index = try WebPContainer.index(store, file: name, limits: options.limits)
        case nil:
            throw store.count == 0
                ? AnimError.truncated(file: name, frame: nil, offset: 0, detail: "the file is empty")
                : AnimError.unsupported(file: name, reason: "not a GIF, PNG or WebP file")
        }
        store.release(0..<store.count)  // indexing touched pages it no longer needs
        store.adviseSequentialReads()
        if partial {
            index.frames = Array(index.frames.prefix(index.settledFrames))
            index.error = nil
        }
        self.store = store
        self.name = name
        self.options = options
        format = index.format
        width = index.width
        height = index.height
        let out =
            options.resizeTo.map { (width: max($0.width, 1), height: max($0.height, 1)) } ?? options.fitIn.map {
                Downsampler.fit(
                    width: index.width, height: index.height, maxWidth: max($0.width, 1), maxHeight: max($0.height, 1))
            } ?? (width: index.width, height: index.height)
        outputWidth = out.width
        outputHeight = out.height
        downsampler =
            out == (index.width, index.height)
            ? nil
            : Downsampler(sourceWidth: index.width, sourceHeight: index.height, width: out.width, height: out.height)
        loopCount = index.loopCount
        plays = index.plays
        indexError = index.error
        metadata = index.metadata
        steps = index.steps
        decoder = index.decoder
        formula = index.formula
        frameSteps = index.frames.map(\.steps)
        frames = Self.frameInfos(index, policy: options.durationPolicy)
        var keys = [Int](repeating: 0, count: index.steps.count)
        var last = 0
        for (i, s) in index.steps.enumerated() {
            if s.isKey { last = i }
            keys[i] = last
        }
        keyAtOrBefore = keys
        var ends = [Int](repeating: -1, count: index.steps.count)
        for (f, range) in index.frames.enumerated() { if let last = range.steps.last { ends[last] = f } }
        frameEndingAt = ends
        prefetcher =
            options.decodeAhead > 0 && index.steps.count > 1
            ? StepPrefetcher(decoder: index.decoder, steps: index.steps, depth: options.decodeAhead) : nil
    }

    deinit { patch?.deallocate() }

    /// The number of displayed frames.
    public var frameCount: Int { frames.count }

    /// How many steps (GIF images, APNG or WebP frames) this source has
    /// decoded and composited, for tests and statistics. Decodes run ahead
    /// on other threads count when they are composited.
    var stepsDecoded: Int {
        lock.lock()
        defer { lock.unlock() }
        return stepsDecodedCount
    }

    private static func frameInfos(_ index: ContainerIndex, policy: DurationPolicy) -> [FrameInfo] {
        index.frames.enumerated().map { (i, f) in
            let group = f.steps.map { index.steps[$0] }
            var rect = Rect(x: 0, y: 0, width: 0, height: 0)
            for s in group { rect = rect.union(s.rect) }
            return FrameInfo(
                index: i, rect: rect, delay: f.delay, duration: policy.effective(f.delay),
                dispose: group.last?.dispose ?? .none, blend: group.first?.blend ?? .source,
                isKeyframe: group.first?.isKey ?? true, imageRange: f.steps,
                isComplete: group.allSatisfy(\.isComplete))
        }
    }
}
