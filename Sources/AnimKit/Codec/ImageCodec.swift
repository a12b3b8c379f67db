/// One format as the shared machinery reaches it: how its bytes are
/// recognised and indexed, and how it is written. Each format's folder has
/// one conforming type, and `Formats` (Formats/Formats.swift) lists them:
/// `ImageSource`, `ImageDestination` and the transcoder name no format.
protocol ImageCodec: Sendable {
    /// True when `bytes` start with the format's signature.
    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// True when `bytes` are fewer than the signature but could begin it.
    static func couldBegin(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The container's index: every step and frame, no pixels decoded.
    static func index(_ store: ByteStore, file: String, options: DecodingOptions) throws -> ContainerIndex
    /// The format written, or nil for a format only read.
    static var output: OutputFormat? { get }
    /// A writer of a `width`×`height` animation to `sink`; `readBack` decodes
    /// what the writer wrote, for a writer that must start over in a wider
    /// form (APNG).
    static func writer(
        sink: OutputSink, width: Int, height: Int, options: EncodingOptions, readBack: @escaping ReadBack
    ) throws -> FrameWriter
    /// Sets in `options` what is chosen from every frame before the first
    /// is written (GIF: the global colour table); `frame(i)` decodes frame i.
    static func prepare(_ options: inout EncodingOptions, frameCount: Int, frame: (Int) throws -> RGBAImage)
}

extension ImageCodec {
    static func prepare(_ options: inout EncodingOptions, frameCount: Int, frame: (Int) throws -> RGBAImage) {}

    /// True when `bytes` are fewer than `signature` and match it so far
    /// (`nil` matches any byte).
    static func bytes(_ bytes: UnsafeRawBufferPointer, couldBegin signature: [UInt8?]) -> Bool {
        bytes.count < signature.count && bytes.indices.allSatisfy { signature[$0] == nil || signature[$0] == bytes[$0] }
    }

    /// True when `bytes` hold `signature` at `offset`.
    static func bytes(_ bytes: UnsafeRawBufferPointer, have signature: [UInt8], at offset: Int = 0) -> Bool {
        guard bytes.count >= offset + signature.count else { return false }
        return signature.indices.allSatisfy { bytes[offset + $0] == signature[$0] }
    }
}

/// The frames of a file a writer wrote, decoded again (an `ImageSource`).
protocol WrittenFrames {
    /// How many frames were decoded.
    var frameCount: Int { get }
    /// Frame `index`, composited.
    func frame(at index: Int) throws -> RGBAImage
}

/// Decodes `bytes` that a writer wrote to the output named `name`.
typealias ReadBack = @Sendable (_ bytes: [UInt8], _ name: String) throws -> WrittenFrames
