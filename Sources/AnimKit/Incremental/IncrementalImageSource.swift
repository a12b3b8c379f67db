/// An image source fed bytes as they arrive: from a pipe, a socket or a
/// download. Append data, read what is complete, then finish.
///
/// The frame index grows as frames complete: a frame is listed once no
/// later byte can change it (for GIF, once the image that ends it is
/// complete; for APNG, once the next `fcTL` or IEND arrives; for WebP, once
/// its ANMF chunk is whole). Asking for a frame that has not arrived yet
/// returns `.notYetAvailable`, not an error. `finish()` settles the rest;
/// if data is missing, `error` then says the file is truncated after the
/// last complete frame.
///
/// `@unchecked Sendable`: every mutable field (`data`, `finished`, `dirty`,
/// `current`, …) is read and written with `lock` held.
public final class IncrementalImageSource: @unchecked Sendable {
    /// What `frame(at:)` gives.
    public enum FrameResult: Equatable, Sendable {
        case frame(RGBAImage)
        /// The frame's bytes have not all arrived yet.
        case notYetAvailable
    }

    /// The name used in messages (default `<stdin>`).
    public let name: String
    /// The options each source over the bytes is opened with.
    public let options: DecodingOptions
    private let lock = Lock()
    private var data: [UInt8] = []
    private var finished = false
    private var dirty = false
    private var current: ImageSource?
    private var failure: AnimError?
    private var indexedSize = 0
    private var seenByWaiter = 0

    /// An empty source: append bytes as they arrive, then `finish()`; `name`
    /// labels messages.
    public init(name: String = "<stdin>", options: DecodingOptions = DecodingOptions()) {
        self.name = name
        self.options = options
    }

    /// Adds bytes that arrived. Ignored after `finish()`.
    public func append(_ bytes: some Collection<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished, !bytes.isEmpty else { return }
        data.append(contentsOf: bytes)
        dirty = true
        lock.broadcast()
    }

    /// Says that no more bytes will come.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        finished = true
        dirty = true
        lock.broadcast()
    }

    /// Waits until bytes arrive (beyond those there were when it last
    /// returned) or the stream finishes, at most `timeoutMs` milliseconds:
    /// for a reader polling for new frames.
    public func waitForData(timeoutMs: Int) {
        lock.lock()
        defer { lock.unlock() }
        if !finished && data.count == seenByWaiter { lock.wait(milliseconds: timeoutMs) }
        seenByWaiter = data.count
    }

    /// True once `finish()` has been called.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    /// Bytes received so far.
    public var byteCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return data.count
    }

    /// The source over the bytes so far (its frames are the complete ones),
    /// or nil while not even the header is complete.
    public var source: ImageSource? {
        lock.lock()
        defer { lock.unlock() }
        refresh()
        return current
    }

    /// Complete frames so far.
    public var frameCount: Int { source?.frameCount ?? 0 }

    /// A definitive problem: the data is not an image, breaks a limit, or
    /// (after `finish()`) ends early. Running out of data before `finish()`
    /// is not an error.
    public var error: AnimError? {
        lock.lock()
        defer { lock.unlock() }
        refresh()
        return failure ?? (finished ? current?.indexError : nil)
    }

    /// Frame `index` if it is complete.
    public func frame(at index: Int) throws -> FrameResult {
        guard let source = self.source, index < source.frameCount else {
            if let error = self.error, isFinished || !(error.isTruncation) { throw error }
            return .notYetAvailable
        }
        return .frame(try source.frame(at: index))
    }

    /// Rebuilds the index when bytes arrived since the last look. The
    /// composited canvas carries over, so reading on does not start again
    /// from a keyframe.
    ///
    /// Each rebuild copies and parses everything received, so before
    /// `finish()` it waits until the data has grown by an eighth: the total
    /// work stays a small multiple of the file's size, and a frame shows up
    /// at most an eighth of the file after its last byte.
    private func refresh() {
        guard dirty, finished || data.count - indexedSize >= max(1, indexedSize / 8) else { return }
        dirty = false
        indexedSize = data.count
        do {
            let next = try ImageSource(store: ByteStore(data), name: name, options: options, partial: !finished)
            if let old = current { next.continueDecoding(from: old) }
            current = next
            failure = nil
        } catch let e as AnimError {
            // Before the end, a header cut short is only data still to come.
            if finished || !e.isTruncation && !e.isIncompleteContainer(byteCount: data.count) { failure = e }
        } catch {
            failure = .library(file: name, frame: nil, library: "AnimKit", message: "\(error)")
        }
    }
}

extension AnimError {
    var isTruncation: Bool {
        if case .truncated = self { return true }
        return false
    }

    /// Errors that a prefix of a valid file can give: an empty or too short
    /// header, a container whose first frame has not arrived.
    func isIncompleteContainer(byteCount: Int) -> Bool {
        switch self {
        case .unsupported: return byteCount < 12
        case .malformed(_, _, _, let reason):
            return reason == "not a valid WebP container" || reason == "no IHDR chunk"
                || reason == "the WebP file has no frame" || reason == "no frames" || reason == "no IDAT chunk"
        default: return false
        }
    }
}
