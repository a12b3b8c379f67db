/// Writes WebP frames (placeholder until the WebP encoder lands).
final class WebPWriter: FrameWriter {
    init(sink: OutputSink, width: Int, height: Int, options: EncodingOptions) throws {
        throw AnimError.unsupported(file: sink.name, reason: "WebP writing is not implemented yet")
    }
    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {}
    func finish() throws {}
}
