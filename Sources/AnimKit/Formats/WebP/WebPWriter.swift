import CWebP

/// Writes an animated WebP through libwebp's `WebPAnimEncoder`.
///
/// Each canvas is imported into a `WebPPicture` (ARGB), handed to the
/// encoder at its start time and freed at once: the encoder keeps its own
/// canvases (current and previous) and the encoded frames until assembly,
/// and chooses each frame's rectangle, blending and disposal itself. It also
/// merges a frame into the one before when nothing changed (within the lossy
/// tolerance for lossy frames). `finish()` gives the last frame its duration
/// (an end timestamp), assembles the file and writes it to the sink.
///
/// Timestamps are the exact sum of the durations so far, rounded to the
/// millisecond only when passed to libwebp, so that rounding never drifts:
/// 30 frames of 1/30 s end at exactly 1000 ms. libwebp stores durations
/// below 2^24 ms (4.6 hours) per frame; a longer frame is added again at
/// intermediate timestamps, which the encoder turns into its own split.
///
/// Frames with fully transparent pixels set `WebPConfig.exact` when
/// `keepHiddenColors` asks for the colour under them; otherwise it is off,
/// and libwebp may change what is under transparent pixels, which never
/// shows (smaller, faster; lossy frames smoother). One exception comes from
/// libwebp: its encoder models an empty or disposed canvas as transparent
/// white (0x00FFFFFF) while decoders clear to transparent black, so fully
/// transparent pixels whose colour is exactly white may come back as
/// transparent black.
final class WebPWriter: FrameWriter {
    private let sink: OutputSink
    private let options: EncodingOptions
    /// `WebPAnimEncoder*`, owned.
    private let encoder: OpaquePointer
    private var config: WebPConfig
    /// The exact sum of the durations of the frames added: the next start.
    private var elapsed = Duration.zero
    private var framesAdded = 0

    /// libwebp's `MAX_DURATION` (anim_encode.c): two timestamps handed to
    /// the encoder one after the other must be closer than this.
    static let maxStep = (1 << 24) - 1
    /// The longest frame accepted (about 24.8 days).
    static let maxFrameDuration = Duration.milliseconds(Int(Int32.max))

    init(sink: OutputSink, width: Int, height: Int, options: EncodingOptions) throws {
        self.sink = sink
        self.options = options
        let maxSide = Int(WEBP_MAX_DIMENSION)
        guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw AnimError(file: sink.name, WebPProblem.canvasSize(width: width, height: height, maximum: maxSide))
        }
        var anim = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInitInternal(&anim, WEBP_MUX_ABI_VERSION) != 0 else {
            throw AnimError.libwebp("WebPAnimEncoderOptionsInit failed: libwebpmux version mismatch", file: sink.name)
        }
        anim.anim_params.loop_count = Int32(options.plays)
        anim.allow_mixed = options.allowMixed ? 1 : 0
        anim.minimize_size = options.effort >= 7 ? 1 : 0
        if options.keyframeInterval > 0 {
            // At most kmax frames between keyframes; libwebp wants
            // kmax / 2 + 1 <= kmin < kmax and lowers kmin itself when kmax is 1 or 2.
            let kmax = Int32(clamping: options.keyframeInterval)
            anim.kmax = kmax
            anim.kmin = kmax / 2 + 1
        }

        var config = WebPConfig()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, 75, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw AnimError.libwebp("WebPConfigInit failed: libwebp version mismatch", file: sink.name)
        }
        // Lossy: quality as such. Lossless: libwebp reads `quality` as the
        // effort; at 75 with method 4 this is WebPConfigLosslessPreset level 6,
        // the default of cwebp and img2webp.
        config.lossless = options.lossless ? 1 : 0
        config.quality = Float(options.quality)
        // libwebp's second thread (analysis, alpha) writes the same bytes, faster.
        config.thread_level = options.oneThread ? 0 : 1
        config.method = 4  // method 6 came out no smaller on screen recordings
        guard WebPValidateConfig(&config) != 0 else {
            throw AnimError.libwebp("WebPValidateConfig refused the encoder settings", file: sink.name)
        }
        self.config = config

        guard let enc = WebPAnimEncoderNewInternal(Int32(width), Int32(height), &anim, WEBP_MUX_ABI_VERSION) else {
            throw AnimError.libwebp(
                "WebPAnimEncoderNew failed for a \(width)x\(height) canvas (out of memory?)", file: sink.name)
        }
        encoder = enc
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {
        guard duration >= .zero else {
            throw AnimError(file: sink.name, frame: index, EncodingProblem.negativeDuration(duration))
        }
        guard duration <= Self.maxFrameDuration else {
            throw AnimError(file: sink.name, WebPProblem.frameDuration(frame: index, duration: duration))
        }
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw AnimError.libwebp("WebPPictureInit failed: libwebp version mismatch", file: sink.name, frame: index)
        }
        defer { WebPPictureFree(&picture) }
        guard picture.importing(frame) else {
            throw AnimError.libwebp(
                "cannot import the frame: \(Self.describe(picture.error_code))", file: sink.name, frame: index)
        }
        config.exact = options.keepHiddenColors && Self.hasTransparentPixel(frame) ? 1 : 0
        let start = elapsed.roundedMilliseconds
        try push(&picture, at: start, frame: index)
        framesAdded += 1
        elapsed += duration
        // A frame of 2^24 ms or more: the same picture again, unchanged, so
        // the encoder lengthens the frame (and splits it in the file).
        let end = elapsed.roundedMilliseconds
        var t = start
        while end - t >= Self.maxStep {
            t += Self.maxStep
            try push(&picture, at: t, frame: index)
        }
    }

    /// True when a pixel is fully transparent.
    static func hasTransparentPixel(_ frame: RGBAImage) -> Bool {
        stride(from: 3, to: frame.pixels.count, by: 4).contains { frame.pixels[$0] == 0 }
    }

    func finish() throws {
        guard framesAdded > 0 else {
            throw AnimError(file: sink.name, EncodingProblem.noFrame)
        }
        // The end timestamp: the duration of the last frame.
        try push(nil, at: elapsed.roundedMilliseconds, frame: framesAdded - 1)
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw AnimError.libwebp(errorText(nil), file: sink.name)
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: data.bytes)) }
        let m = options.metadata
        guard m.iccProfile != nil || m.exif != nil || m.xmp != nil else {
            return try sink.write(UnsafeRawBufferPointer(start: data.bytes, count: data.size))
        }
        try sink.write(try withMetadata(data, m))
    }

    /// The file with the `ICCP`, `EXIF` and `XMP ` chunks added by libwebp's
    /// muxer (which sets their `VP8X` flags). WebP has no text chunk.
    private func withMetadata(_ data: WebPData, _ m: ImageMetadata) throws -> [UInt8] {
        var input = data
        guard let mux = WebPMuxCreateInternal(&input, 0, WEBP_MUX_ABI_VERSION) else {
            throw AnimError.libwebp("WebPMuxCreate failed", file: sink.name)
        }
        defer { WebPMuxDelete(mux) }
        for (tag, bytes) in [("ICCP", m.iccProfile), ("EXIF", m.exif), ("XMP ", m.xmp.map { Array($0.utf8) })] {
            guard let bytes, !bytes.isEmpty else { continue }
            let status = bytes.withUnsafeBufferPointer { b in
                var chunk = WebPData(bytes: b.baseAddress, size: b.count)
                return WebPMuxSetChunk(mux, tag, &chunk, 1)
            }
            guard status == WEBP_MUX_OK else {
                throw AnimError.libwebp("WebPMuxSetChunk \(tag) failed (\(status.rawValue))", file: sink.name)
            }
        }
        var out = WebPData()
        guard WebPMuxAssemble(mux, &out) == WEBP_MUX_OK else {
            throw AnimError.libwebp("WebPMuxAssemble failed", file: sink.name)
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: out.bytes)) }
        return Array(UnsafeBufferPointer(start: out.bytes, count: out.size))
    }

    /// `WebPAnimEncoderAdd`; `picture` nil gives the end timestamp.
    private func push(_ picture: UnsafeMutablePointer<WebPPicture>?, at ms: Int, frame index: Int) throws {
        // libwebp compares timestamps modulo 2^32, so wrapping is harmless.
        let ok =
            picture == nil
            ? WebPAnimEncoderAdd(encoder, nil, Int32(truncatingIfNeeded: ms), nil)
            : WebPAnimEncoderAdd(encoder, picture, Int32(truncatingIfNeeded: ms), &config)
        guard ok != 0 else {
            throw AnimError.libwebp(errorText(picture?.pointee.error_code), file: sink.name, frame: index)
        }
    }

    /// libwebp's own error text, with the picture's error code spelled out.
    private func errorText(_ code: WebPEncodingError?) -> String {
        var text = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""
        if text.isEmpty { text = "WebPAnimEncoder failed" }
        if let code, code != VP8_ENC_OK { text += " (\(Self.describe(code)))" }
        return text
    }

    static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_OK: return "no error"
        case VP8_ENC_ERROR_OUT_OF_MEMORY: return "out of memory"
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory flushing the bitstream"
        case VP8_ENC_ERROR_NULL_PARAMETER: return "a pointer parameter is NULL"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: return "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: return "bad picture dimensions"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: return "partition 0 is bigger than 512 KiB"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "a partition is bigger than 16 MiB"
        case VP8_ENC_ERROR_BAD_WRITE: return "error while writing the bytes"
        case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be bigger than 4 GiB"
        case VP8_ENC_ERROR_USER_ABORT: return "aborted"
        default: return "WebPEncodingError \(code.rawValue)"
        }
    }
}
