/// PNG and APNG in the list of formats (told apart by `acTL` while indexing).
enum PNGCodec: ImageCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool { Self.bytes(bytes, have: signature) }

    static func couldBegin(_ bytes: UnsafeRawBufferPointer) -> Bool { Self.bytes(bytes, couldBegin: signature) }

    static func index(_ store: ByteStore, file: String, options: DecodingOptions) throws -> ContainerIndex {
        try APNGContainer.index(store, file: file, limits: options.limits)
    }

    static var output: OutputFormat? { .apng }

    static func writer(
        sink: OutputSink, width: Int, height: Int, options: EncodingOptions, readBack: @escaping ReadBack
    ) throws -> FrameWriter {
        try APNGWriter(sink: sink, width: width, height: height, options: options, readBack: readBack)
    }
}
