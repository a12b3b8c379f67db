/// A codec: turns step i of a parsed container into a patch of RGBA8
/// pixels. Codecs never composite; the `Compositor` does.
protocol StepDecoder: AnyObject, Sendable {
    /// Decodes step `index` into `target`: `rect.height` rows of
    /// `rect.width` RGBA8 pixels (not premultiplied), `target.stride` bytes
    /// apart, where `rect` is the step's (clipped) rect.
    func decode(step index: Int, into target: PixelTarget) throws

    /// The bytes of the file step `index` decodes from (its pages may be
    /// given back once it is decoded).
    func dataRange(step index: Int) -> Range<Int>

    /// True when the codec can leave transparent pixels unwritten instead
    /// of writing alpha 0 (GIF), so the compositor may let it write
    /// straight into the canvas.
    var writesMasked: Bool { get }

    /// The same decoder converting its colour tables by `transform`, for a
    /// codec whose pixels all come from tables (GIF); nil for the others,
    /// whose composited frames are converted instead.
    func convertingColorTables(_ transform: ColorTransform) -> StepDecoder?
}

extension StepDecoder {
    func convertingColorTables(_ transform: ColorTransform) -> StepDecoder? { nil }
}

/// A codec whose decode splits in two: the part that needs no canvas (GIF:
/// the LZW stream into colour indices), which decoding ahead runs on
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

/// A codec that decodes a step already shrunk (libwebp's scaled decode):
/// for a still delivered smaller than its canvas, neither the time nor the
/// memory then follow the canvas (`FrameCursor.withFrame`).
protocol ScaledStepDecoder: StepDecoder {
    /// Whether `decodeScaled` takes step `index` unless its data turns out
    /// damaged (known from the index: the memory a source needs follows).
    func scales(step index: Int) -> Bool

    /// The bytes `decodeScaled` holds for step `index` beside its output
    /// and the file (`WorkingSet`).
    func scaledDecodingBytes(step index: Int) -> Int

    /// Decodes step `index` shrunk to `width`×`height` into `target`, rows
    /// of `width` RGBA8 pixels (not premultiplied) one after the other,
    /// averaging the source pixels each output pixel covers. False when
    /// this step is left to the usual path (GIF: damaged data, whose rows
    /// the compositor fills as browsers do).
    func decodeScaled(step index: Int, width: Int, height: Int, into target: UnsafeMutableRawBufferPointer) throws
        -> Bool
}
