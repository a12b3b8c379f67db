/// One format as the shared machinery reaches it: how its bytes are
/// recognised and indexed, and how it is written. Each format's folder
/// defines one (`ImageCodec.gif`, …), and `Formats` (Formats/Formats.swift)
/// lists them: `ImageSource`, `ImageDestination` and the transcoder name no
/// format.
struct ImageCodec: Sendable {
    /// The signatures a file of the format starts with; nil matches any byte.
    let signatures: [[UInt8?]]
    /// The format written, or nil for a format only read.
    let output: OutputFormat?
    /// The container's index: every step and frame, no pixels decoded.
    let index: @Sendable (_ store: ByteStore, _ file: String, _ options: DecodingOptions) throws -> ContainerIndex
    /// A writer of a `width`×`height` animation to `sink`; `readBack`
    /// decodes what the writer wrote, for a writer that must start over in
    /// a wider form (APNG).
    let writer:
        @Sendable (
            _ sink: OutputSink, _ width: Int, _ height: Int, _ options: EncodingOptions, _ readBack: @escaping ReadBack
        ) throws -> FrameWriter
    /// Sets in `options` what is chosen from every frame before the first
    /// is written (GIF: the global colour table); `frame(i)` decodes frame i.
    var prepare: @Sendable (_ options: inout EncodingOptions, _ frameCount: Int, _ frame: (Int) throws -> RGBAImage) -> Void =
        { _, _, _ in }

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

/// Decodes `bytes` that a writer wrote to the output named `name`: how
/// many frames there are, and frame i composited.
typealias ReadBack =
    @Sendable (_ bytes: [UInt8], _ name: String) throws -> (frameCount: Int, frame: (Int) throws -> RGBAImage)
