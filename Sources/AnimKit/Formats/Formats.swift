/// Every format AnimKit reads and writes: the one list that names them.
/// Adding a format is a folder under Formats/ that defines its
/// `ImageCodec`, and a line here (and its name in `ImageFormat` and
/// `OutputFormat`).
enum Formats {
    /// The formats, in the order their signatures are tried.
    static let all: [ImageCodec] = [.gif, .png, .webp]

    /// The format whose signature `bytes` start with.
    static func reading(_ bytes: UnsafeRawBufferPointer) -> ImageCodec? {
        all.first { $0.recognises(bytes) }
    }

    /// True when `bytes` are too few to tell, but could begin a signature.
    static func couldBegin(_ bytes: UnsafeRawBufferPointer) -> Bool {
        all.contains { $0.couldBegin(bytes) }
    }

    /// The codec that reads `format`.
    static func codec(of format: ImageFormat) -> ImageCodec {
        guard let codec = all.first(where: { $0.reads.contains(format) }) else {
            preconditionFailure("no codec reads \(format)")  // every ImageFormat case has one (FormatsTests)
        }
        return codec
    }

    /// The format that writes `format`.
    static func writing(_ format: OutputFormat) -> ImageCodec.Writing {
        guard let writing = all.lazy.compactMap(\.writing).first(where: { $0.output == format }) else {
            preconditionFailure("no codec writes \(format)")  // every OutputFormat case has one (FormatsTests)
        }
        return writing
    }
}
