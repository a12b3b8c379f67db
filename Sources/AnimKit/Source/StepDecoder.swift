/// A codec: turns step i of a parsed container into a patch of RGBA8 pixels.
/// Codecs never composite; the `Compositor` does.
protocol StepDecoder: AnyObject, Sendable {
    /// Decodes step `index` into `target`: `rect.height` rows of
    /// `rect.width` RGBA8 pixels (not premultiplied), `target.stride` bytes
    /// apart, where `rect` is the step's (clipped) rect.
    func decode(step index: Int, into target: PixelTarget) throws

    /// The bytes of the file step `index` decodes from (its pages may be
    /// given back once it is decoded).
    func dataRange(step index: Int) -> Range<Int>

    /// True when the codec can leave transparent pixels unwritten instead of
    /// writing alpha 0 (GIF), so the compositor may let it write straight
    /// into the canvas.
    var writesMasked: Bool { get }
}

/// A codec whose decode splits in two: the part that needs no canvas
/// (GIF: the LZW stream into colour indices), which decoding ahead runs on
/// another thread, and the rest (indices to pixels), run on the
/// compositor's thread straight into the canvas, as an inline decode.
/// `decode(step:into:)` is `prepare` then `finish`.
protocol SplitStepDecoder: StepDecoder {
    /// Bytes `prepare` needs for step `index`.
    func preparedBytes(step index: Int) -> Int
    /// Runs the first part of step `index` into `buffer`; returns what
    /// `finish` needs to know of it (GIF: how many indices were decoded).
    func prepare(step index: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Writes step `index`'s pixels from `prepare`'s `buffer` and `result`.
    func finish(step index: Int, prepared buffer: UnsafeRawBufferPointer, result: Int, into target: PixelTarget)
}

/// Where a codec writes a step's pixels: the canvas itself or a patch.
struct PixelTarget {
    var base: UnsafeMutableRawPointer
    /// Bytes from one row to the next.
    var stride: Int
    /// When true, transparent pixels must be left as they are (only codecs
    /// with `writesMasked` get such a target). When false, every pixel of the
    /// rect is written; pixels the data does not reach get alpha 0.
    var masked: Bool
}

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

extension DecodingLimits {
    /// Throws unless a canvas of `width`×`height` is within the limits.
    func checkCanvas(width: Int, height: Int, file: String) throws {
        if width <= 0 || height <= 0 {
            throw AnimError.malformed(
                file: file, frame: nil, offset: nil,
                reason: "canvas size \(width)x\(height) is empty")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxCanvasPixels {
            throw AnimError.limitExceeded(
                file: file, limit: "maxCanvasPixels",
                value: pixels.overflow ? Int.max : pixels.partialValue,
                maximum: maxCanvasPixels)
        }
    }

    /// Throws when `count` steps exceed the frame limit.
    func checkFrameCount(_ count: Int, file: String) throws {
        if count > maxFrameCount {
            throw AnimError.limitExceeded(file: file, limit: "maxFrameCount", value: count, maximum: maxFrameCount)
        }
    }

    /// Throws when the steps together decode more bytes than allowed.
    func checkDecodedBytes(_ steps: [Step], file: String) throws {
        var total = 0
        for s in steps {
            total += max(s.rect.width, 0) * max(s.rect.height, 0) * 4
            if total > maxDecodedBytes {
                throw AnimError.limitExceeded(file: file, limit: "maxDecodedBytes", value: total, maximum: maxDecodedBytes)
            }
        }
    }
}
