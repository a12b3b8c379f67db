/// A file copied as `OutputSink` writes one (`AtomicFile`): through a
/// temporary file in the destination's folder, renamed into place, so `to`
/// is never left half written (`anim optimize` copies an input that was
/// smallest).
@_spi(AnimTools) public enum FileCopy {
    public static func copy(_ from: String, to: String) throws {
        try AtomicFile.write(try FileBytes.read(path: from), to: to)
    }
}
