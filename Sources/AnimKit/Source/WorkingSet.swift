/// The most memory an `ImageSource`'s decoding holds, estimated from its
/// index before anything is allocated (`DecodingLimits.maxMemory`): the
/// file's bytes when read rather than mapped, the canvas, the patch a step
/// is decoded into, the pixels kept for a dispose-to-previous, the delivered
/// frame (downsampled, or colour-converted with its shadow), and the buffers
/// of the decodes run ahead. Not counted: frames handed to the caller, the
/// frame cache (its own budget), and the codecs' row buffers (kilobytes).
struct WorkingSet: Equatable {
    /// Bytes that do not depend on decoding ahead.
    let base: Int
    /// `base` when frames are composited on a canvas (as a scaled still's are
    /// when its data sends it the usual way).
    let composited: Int
    /// Bytes each buffer of decoding ahead adds.
    let perBuffer: Int

    /// `storeBytes`: the file's bytes held in memory (0 when mapped).
    /// `scaledStill`: the only image is shrunk as it decodes
    /// (`FrameCursor.scaledStill`), holding these bytes besides: no canvas, no
    /// patch, only the output and the file's bytes it reads.
    init(
        index: FrameIndex, decoder: StepDecoder, storeBytes: Int, outputWidth: Int, outputHeight: Int, converts: Bool,
        scaledStill: Int?
    ) {
        // The most bytes of file one step reads: resident while it is decoded, mapped or not.
        let largestData = index.steps.indices.map { decoder.dataRange(step: $0).count }.max() ?? 0
        let canvas = Self.bytes(index.width, index.height)
        let output = Self.bytes(outputWidth, outputHeight)
        let largest = index.steps.map { Self.bytes($0.rect.width, $0.rect.height) }.max() ?? 0
        let saves = index.steps.contains { $0.dispose == .previous } ? largest : 0
        let downsamples = (outputWidth, outputHeight) != (index.width, index.height)
        let delivery = downsamples ? output : converts ? 2 * canvas : 0
        // What one decode holds beside its pixels: the file's bytes it reads (a
        // PNG frame's twice: mapped, and copied for libpng), a GIF's indices,
        // libwebp's ARGB image.
        let (decoding, stepBuffer) = Formats.codec(of: index.format).decoding(largestData, largest)
        composited = Self.runtime + storeBytes + canvas + largest + decoding + saves + delivery
        base = scaledStill.map { Self.runtime + storeBytes + output + largestData + $0 } ?? composited
        // Small steps are decoded ahead in batches of up to `DecodeAheadPolicy.batch.bytes`.
        perBuffer = max(stepBuffer ?? largest * (converts && !downsamples ? 2 : 1), DecodeAheadPolicy.batch.bytes) + decoding
    }

    /// The process before any picture: the binary, the Swift runtime and the C libraries.
    static let runtime = 16 << 20

    /// The whole estimate with `depth` decodes ahead: at most `depth + 1`
    /// buffers (`StepPrefetcher`).
    func bytes(decodeAhead depth: Int) -> Int {
        guard depth > 0 else { return base }
        let (ahead, overflow) = (depth + 1).multipliedReportingOverflow(by: perBuffer)
        return overflow || ahead > Int.max / 2 ? Int.max / 2 : base + ahead
    }

    /// The most decodes ahead, at most `wanted`, that fit in `budget`.
    func decodeAhead(_ wanted: Int, within budget: Int) -> Int {
        var depth = max(wanted, 0)
        while depth > 0 && bytes(decodeAhead: depth) > budget { depth -= 1 }
        return depth
    }

    /// `width`×`height` RGBA pixels in bytes, saturating.
    static func bytes(_ width: Int, _ height: Int) -> Int {
        let (pixels, overflow) = max(width, 0).multipliedReportingOverflow(by: max(height, 0))
        return overflow || pixels > Int.max / 4 ? Int.max / 8 : pixels * 4
    }
}
