/// GIF (87a and 89a) in the list of formats.
enum GIFCodec: ImageCodec {
    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool {
        Self.bytes(bytes, have: Array("GIF87a".utf8)) || Self.bytes(bytes, have: Array("GIF89a".utf8))
    }

    static func couldBegin(_ bytes: UnsafeRawBufferPointer) -> Bool {
        Self.bytes(bytes, couldBegin: Array("GIF8".utf8) + [nil] + Array("a".utf8))
    }

    static func index(_ store: ByteStore, file: String, options: DecodingOptions) throws -> ContainerIndex {
        try GIFContainer.index(
            store, file: file, limits: options.limits, merging: options.mergesZeroDelayImages,
            growing: options.growsCanvasToFirstImage)
    }

    static var output: OutputFormat? { .gif }

    static func writer(
        sink: OutputSink, width: Int, height: Int, options: EncodingOptions, readBack: @escaping ReadBack
    ) throws -> FrameWriter {
        try GIFWriter(sink: sink, width: width, height: height, options: options)
    }

    /// The global table (`GlobalTableChoice`), unless one is given.
    static func prepare(_ options: inout EncodingOptions, frameCount: Int, frame: (Int) throws -> RGBAImage) {
        guard options.globalColors == nil else { return }
        options.globalColors = try? GIFGlobalTable.of(count: frameCount, limit: max(options.maxColors - 1, 2), frame: frame)
    }
}
