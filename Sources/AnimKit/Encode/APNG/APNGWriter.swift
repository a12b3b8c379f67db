/// Writes APNG frames (placeholder).
final class APNGWriter: FrameWriter {
    init(sink: OutputSink, width: Int, height: Int, options: EncodingOptions) throws {
        throw AnimError.unsupported(file: sink.name, reason: "APNG writing is not implemented yet")
    }
    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {}
    func finish() throws {}
}
