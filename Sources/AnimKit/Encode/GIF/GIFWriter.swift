/// Writes GIF frames (placeholder until the GIF encoder lands).
final class GIFWriter: FrameWriter {
    init(sink: OutputSink, width: Int, height: Int, options: EncodingOptions) throws {
        throw AnimError.unsupported(file: sink.name, reason: "GIF writing is not implemented yet")
    }
    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {}
    func finish() throws {}
}
