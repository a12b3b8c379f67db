/// Whole-file writes that either complete or leave nothing behind (an
/// `OutputSink` on a temporary file, renamed into place; a link's target
/// replaced, a device written directly, permissions kept).
package enum AtomicFile {
    /// `bytes` as the file `path`; `durable`: flushed to the disk first.
    package static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        let sink = try OutputSink(path: path)  // gone uncommitted, it removes its temporary (`abort`)
        try sink.write(bytes)
        try sink.commit(durable: durable)
    }
}
