/// WebP (RIFF … WEBP), still or animated, in the list of formats.
enum WebPCodec: ImageCodec {
    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool {
        Self.bytes(bytes, have: Array("RIFF".utf8)) && Self.bytes(bytes, have: Array("WEBP".utf8), at: 8)
    }

    static func couldBegin(_ bytes: UnsafeRawBufferPointer) -> Bool {
        Self.bytes(bytes, couldBegin: Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8))
    }

    static func index(_ store: ByteStore, file: String, options: DecodingOptions) throws -> ContainerIndex {
        try WebPContainer.index(store, file: file, limits: options.limits)
    }

    static var output: OutputFormat? { .webp }

    static func writer(
        sink: OutputSink, width: Int, height: Int, options: EncodingOptions, readBack: @escaping ReadBack
    ) throws -> FrameWriter {
        try WebPWriter(sink: sink, width: width, height: height, options: options)
    }
}
