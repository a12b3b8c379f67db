/// A file copied as `OutputSink` writes one (`AtomicFile`): through a
/// temporary file in the destination's folder, renamed into place, so `to`
/// is never left half written (`anim optimize` copies an input that was
/// smallest).
package enum FileCopy {
    /// Copies the file `from` to `to` atomically (see `AtomicFile`).
    package static func copy(_ from: String, to: String) throws {
        try AtomicFile.write(try FileBytes.read(path: from), to: to)
    }
}
