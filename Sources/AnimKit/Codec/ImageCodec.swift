/// One format as the shared machinery reaches it: how its bytes are
/// recognised and indexed, and how it is written. Each format's folder
/// defines one (`ImageCodec.gif`, …), and `Formats` (Formats/Formats.swift)
/// lists them: `ImageSource`, `ImageDestination` and the transcoder name no
/// format.
struct ImageCodec: Sendable {
    /// The signatures a file of the format starts with; nil matches any byte.
    let signatures: [[UInt8?]]
    /// The formats indexed (`ImageFormat`).
    let reads: [ImageFormat]
    /// The container's index: every step and frame, no pixels decoded.
    let index: @Sendable (_ store: ByteStore, _ file: String, _ options: DecodingOptions) throws -> ContainerIndex
    /// What one decode holds beside its pixels (`pixels` bytes of RGBA),
    /// the step reading `data` bytes of file; and a step's buffer decoded
    /// ahead, nil for its RGBA pixels (`WorkingSet`).
    var decoding: @Sendable (_ data: Int, _ pixels: Int) -> (working: Int, buffer: Int?) = { data, _ in (data, nil) }
    /// The ICC profile among the metadata is the colour space (PNG has
    /// colour chunks of its own).
    var profileIsColor = true
    /// How the format is written; nil for a format only read.
    var writing: Writing?

    /// What the shared writing code asks of a format it writes.
    struct Writing: Sendable {
        /// The format written.
        let output: OutputFormat
        /// A writer of a `width`×`height` animation to `sink`; `readBack`
        /// decodes what the writer wrote, for a writer that must start over
        /// in a wider form (APNG).
        let writer:
            @Sendable (
                _ sink: OutputSink, _ width: Int, _ height: Int, _ options: EncodingOptions, _ readBack: @escaping ReadBack
            ) throws -> FrameWriter
        /// File name extensions of the format written, the first its own.
        var extensions: [String] = []
        /// The most plays the format stores.
        var maximumPlays = 0
        /// What of `metadata` the format cannot hold, one sentence each.
        var lost: @Sendable (_ metadata: ImageMetadata) -> [String] = { _ in [] }
        /// Bytes a canvas pixel the writer holds (measured on noise), with
        /// `frames` frames to write.
        var encodingBytes: @Sendable (_ frames: Int) -> Int = { _ in 64 }
        /// The size ladder's steps of the format's own settings
        /// (`SizeLadder`): `options` as the format uses them (first), then
        /// each giving up more.
        var sizeSteps: @Sendable (_ options: EncodingOptions) -> [EncodingOptions] = { [$0] }
        /// The frame count is written before the first frame (APNG's
        /// `acTL`): an output that cannot seek needs it up front.
        var countsFramesFirst = false
        /// Hidden colours (under alpha 0) are cleared unless kept (APNG).
        var clearsHiddenColors = false
        /// A source of this format rewritten in it is read with its images
        /// and delays as stored (`DecodingOptions.imagesAsStored`; GIF).
        var rewritesAsStored = false
        /// Sets in `options` what is chosen from every frame before the
        /// first is written (GIF: the global colour table); `frame(i)`
        /// decodes frame i. Nil: nothing (no frame is read for it).
        var prepare:
            (@Sendable (_ options: inout EncodingOptions, _ frameCount: Int, _ frame: (Int) throws -> RGBAImage) -> Void)?
        /// Sets in `options` what writing frames of a source of this same
        /// format changes (GIF: exact colours; its delays as stored when
        /// `storedDelays`).
        var sameFormat: @Sendable (_ options: inout EncodingOptions, _ storedDelays: Bool) -> Void = { _, _ in }
    }

    /// The format written, or nil for a format only read.
    var output: OutputFormat? { writing?.output }

    /// True when `bytes` start with one of the signatures.
    func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool {
        signatures.contains { sig in bytes.count >= sig.count && matches(bytes, sig) }
    }

    /// True when `bytes` are fewer than a signature but could begin it.
    func couldBegin(_ bytes: UnsafeRawBufferPointer) -> Bool {
        signatures.contains { sig in bytes.count < sig.count && matches(bytes, sig) }
    }

    private func matches(_ bytes: UnsafeRawBufferPointer, _ signature: [UInt8?]) -> Bool {
        zip(bytes, signature).allSatisfy { $1 == nil || $0 == $1 }
    }
}

/// Decodes `bytes` that a writer wrote to the output named `name`: how many
/// frames there are, and frame i composited.
typealias ReadBack =
    @Sendable (_ bytes: [UInt8], _ name: String) throws -> (frameCount: Int, frame: (Int) throws -> RGBAImage)
