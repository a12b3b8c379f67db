/// A file copied as `OutputSink` writes one: through a temporary file in
/// the destination's folder, renamed into place, so `to` is never left
/// half written (`anim optimize` copies an input that was smallest).
@_spi(AnimTools) public enum FileCopy {
    public static func copy(_ from: String, to: String) throws {
        let bytes = try FileBytes.read(path: from)
        let sink = try OutputSink(path: to)
        do {
            try sink.write(bytes)
            try sink.commit()
        } catch {
            sink.abort()
            throw error
        }
    }
}
