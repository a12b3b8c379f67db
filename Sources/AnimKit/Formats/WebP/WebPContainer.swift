import CWebP

/// WebP through libwebp: WebPDemux indexes the container at open, and each
/// frame is decoded on its own with WebPDecode into a patch, so WebP seeks
/// like GIF and APNG; the shared Compositor, with libwebp's blend formula,
/// makes the canvases bit-exact with `WebPAnimDecoder`.
/// This is the only file of AnimKit that imports libwebp.
enum WebPContainer {
    static func index(_ store: ByteStore, file: String, limits: DecodingLimits) throws -> ContainerIndex {
        var data = WebPData(bytes: store.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: store.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demux = WebPDemuxInternal(&data, 1, &state, WEBP_DEMUX_ABI_VERSION) else {
            if state == WEBP_DEMUX_PARSING_HEADER {  // libwebp needs more of the header
                throw AnimError(file: file, offset: store.count, WebPProblem.headerIncomplete)
            }
            throw AnimError(file: file, WebPProblem.notAContainer)
        }
        defer { WebPDemuxDelete(demux) }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        let animated = flags & ANIMATION_FLAG.rawValue != 0
        if state == WEBP_DEMUX_PARSING_HEADER || (width == 0 && height == 0 && state != WEBP_DEMUX_DONE) {
            throw AnimError(file: file, offset: store.count, WebPProblem.headerIncomplete)
        }
        try limits.checkCanvas(width: width, height: height, file: file)
        let declared = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        try limits.checkFrameCount(declared, file: file)
        let base = store.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var steps: [Step] = []
        var fragments: [Range<Int>] = []
        var delays: [Duration] = []
        var iter = WebPIterator()
        var error: AnimError? = nil
        if WebPDemuxGetFrame(demux, 1, &iter) != 0 {
            repeat {
                guard iter.complete != 0 else {
                    error = AnimError(
                        file: file, frame: steps.count, offset: store.count, WebPProblem.frameIncomplete(frame: steps.count))
                    break
                }
                steps.append(
                    Step(
                        rect: Rect(
                            x: Int(iter.x_offset), y: Int(iter.y_offset),
                            width: Int(iter.width), height: Int(iter.height)),
                        dispose: iter.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none,
                        blend: iter.blend_method == WEBP_MUX_BLEND ? .over : .source,
                        hasAlpha: iter.has_alpha != 0))
                fragments.append((iter.fragment.bytes - base)..<(iter.fragment.bytes - base + iter.fragment.size))
                delays.append(.milliseconds(animated ? Int(iter.duration) : 0))
            } while WebPDemuxNextFrame(&iter) != 0
            WebPDemuxReleaseIterator(&iter)
        }
        if error == nil && state != WEBP_DEMUX_DONE {
            error = AnimError(file: file, frame: steps.count, offset: store.count, WebPProblem.endsEarly)
        }
        if steps.isEmpty {
            throw error ?? AnimError(file: file, frame: 0, WebPProblem.noFrame)
        }
        let canvas = Rect(x: 0, y: 0, width: width, height: height)
        Step.markKeyframes(&steps, canvas: canvas)
        try limits.checkDecodedBytes(steps, file: file)
        let loop = animated ? Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT)) : nil
        return ContainerIndex(
            format: .webp, width: width, height: height, steps: steps,
            frames: delays.enumerated().map { (i, d) in (i..<(i + 1), d) },
            loopCount: loop, plays: loop == 0 ? .forever : .count(loop ?? 1),
            formula: .libwebp, error: error,
            decoder: WebPFrameDecoder(store: store, file: file, fragments: fragments, steps: steps),
            settledFrames: steps.count, metadata: metadata(demux))
    }

    /// The ICCP, EXIF and XMP chunks (the first of each), as libwebp's
    /// demuxer finds them.
    private static func metadata(_ demux: OpaquePointer) -> ImageMetadata {
        func chunk(_ fourCC: String) -> [UInt8]? {
            var iter = WebPChunkIterator()
            defer { WebPDemuxReleaseChunkIterator(&iter) }
            guard WebPDemuxGetChunk(demux, fourCC, 1, &iter) != 0, iter.chunk.size <= ImageMetadata.maximumBlock,
                let p = iter.chunk.bytes
            else { return nil }
            return Array(UnsafeBufferPointer(start: p, count: iter.chunk.size))
        }
        var m = ImageMetadata()
        m.iccProfile = chunk("ICCP")
        m.exif = chunk("EXIF")
        m.xmp = chunk("XMP ").map { String(decoding: $0, as: UTF8.self) }
        return m
    }
}

/// Decodes one WebP frame's bitstream (VP8 or VP8L, with ALPH) with
/// WebPDecode into RGBA, as `WebPAnimDecoder` does.
///
/// Each decode keeps its libwebp state in locals.
final class WebPFrameDecoder: ScaledStepDecoder, Sendable {
    let writesMasked = false
    private let store: ByteStore
    private let file: String
    /// Each frame's bitstream in the file.
    private let fragments: [Range<Int>]
    private let steps: [Step]

    init(store: ByteStore, file: String, fragments: [Range<Int>], steps: [Step]) {
        self.store = store
        self.file = file
        self.fragments = fragments
        self.steps = steps
    }

    func dataRange(step index: Int) -> Range<Int> { fragments[index] }

    func decode(step index: Int, into target: PixelTarget) throws {
        let rect = steps[index].rect
        try decode(step: index, width: rect.width, height: rect.height, into: target, scaled: false)
    }

    func scales(step index: Int) -> Bool { true }

    /// Lossless (VP8L): libwebp decodes the whole image as ARGB before it
    /// scales; lossy: a few rows of macroblocks (counted as the frame's
    /// data, a generous bound).
    func scaledDecodingBytes(step index: Int) -> Int {
        let bytes = store.bytes
        var p = fragments[index].lowerBound
        // The fragment: ALPH (lossy with alpha) or VP8 or VP8L first.
        if p + 8 <= bytes.count, bytes[p..<(p + 4)].elementsEqual("ALPH".utf8) {
            p += 8 + (Int(ByteReader.le32(bytes, p + 4)) + 1) & ~1
        }
        let lossless = p + 4 <= bytes.count && bytes[p..<(p + 4)].elementsEqual("VP8L".utf8)
        let rect = steps[index].rect
        return fragments[index].count + (lossless ? rect.width * rect.height * 4 : 0)
    }

    /// libwebp's own scaling: it averages the pixels each output pixel
    /// covers while it decodes, colours weighted by alpha, as `Downsampler`
    /// does but for how an output pixel's edge weighs the source pixels it
    /// cuts (the PSNR against decode-then-downsample: `ScaledDecodeTests`).
    func decodeScaled(step index: Int, width: Int, height: Int, into target: UnsafeMutableRawBufferPointer) throws
        -> Bool
    {
        try decode(
            step: index, width: width, height: height,
            into: PixelTarget(base: target.baseAddress!, stride: width * 4, masked: false), scaled: true)
        return true
    }

    private func decode(step index: Int, width: Int, height: Int, into target: PixelTarget, scaled: Bool) throws {
        let rect = steps[index].rect
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
            throw AnimError.libwebp("version mismatch", file: file, frame: index)
        }
        config.output.colorspace = MODE_RGBA
        // A large lossy frame: libwebp filters on a second thread while it
        // decodes (the same pixels, sooner).
        if rect.width * rect.height >= 4 << 20 { config.options.use_threads = 1 }
        if scaled {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = target.base.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(target.stride)
        config.output.u.RGBA.size = target.stride * (height - 1) + width * 4
        let bytes = store.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + fragments[index].lowerBound
        let status = WebPDecode(bytes, fragments[index].count, &config)
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else {
            throw AnimError.libwebp("WebPDecode failed with status \(status.rawValue)", file: file, frame: index)
        }
    }
}
