/// A codec: turns step i of a parsed container into a patch of RGBA8 pixels.
/// Codecs never composite; the `Compositor` does.
protocol StepDecoder: AnyObject {
    /// Decodes step `index` into `patch`: `rect.height` rows of
    /// `rect.width * 4` bytes, RGBA8 not premultiplied, where `rect` is the
    /// step's (clipped) rect. Pixels the data does not reach (a truncated
    /// GIF image) are left with alpha 0, so the canvas shows through.
    func decode(step index: Int, into patch: UnsafeMutableRawBufferPointer) throws
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
}

extension DecodingLimits {
    /// Throws unless a canvas of `width`×`height` is within the limits.
    func checkCanvas(width: Int, height: Int, file: String) throws {
        if width <= 0 || height <= 0 {
            throw AnimError.malformed(file: file, frame: nil, offset: nil,
                                      reason: "canvas size \(width)x\(height) is empty")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxCanvasPixels {
            throw AnimError.limitExceeded(file: file, limit: "maxCanvasPixels",
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
