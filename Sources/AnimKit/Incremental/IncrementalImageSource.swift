import Dispatch

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
/// `Sendable`: every mutable field is in `State`, behind a `Locked`.
public final class IncrementalImageSource: Sendable {
    /// What `frame(at:)` gives.
    public enum FrameResult: Equatable, Sendable {
        /// The frame, composited.
        case frame(RGBAImage)
        /// The frame's bytes have not all arrived yet.
        case notYetAvailable
    }

    /// The name used in messages (default `<stdin>`).
    public let name: String
    /// The options each source over the bytes is opened with.
    public let options: DecodingOptions
    private let state = Locked(State())

    /// The bytes and what was made of them.
    private struct State {
        var data: [UInt8] = []
        var finished = false
        /// Bytes arrived (or `finish()`) since the last index.
        var dirty = false
        var current: ImageSource?
        var failure: AnimError?
        var indexedSize = 0
        var seenByWaiter = 0
        /// Readers in `waitForData`.
        var waiters = Waiters()
    }

    /// An empty source: append bytes as they arrive, then `finish()`;
    /// `name` labels messages.
    public init(name: String = "<stdin>", options: DecodingOptions = DecodingOptions()) {
        (self.name, self.options) = (name, options)
    }

    /// Adds bytes that arrived. Ignored after `finish()`.
    public func append(_ bytes: some Collection<UInt8>) {
        state.withLock { s in
            guard !s.finished, !bytes.isEmpty else { return }
            s.data.append(contentsOf: bytes)
            s.dirty = true
            s.waiters.wakeAll()
        }
    }

    /// Says that no more bytes will come.
    public func finish() {
        state.withLock {
            $0.finished = true
            $0.dirty = true
            $0.waiters.wakeAll()
        }
    }

    /// Waits until bytes arrive (beyond those there were when it last
    /// returned) or the stream finishes, at most `timeoutMs` milliseconds:
    /// for a reader polling for new frames.
    public func waitForData(timeoutMs: Int) {
        let parked = state.withLock { s in s.finished || s.data.count != s.seenByWaiter ? nil : s.waiters.park() }
        let timedOut = parked.map { $0.wait(timeout: .now() + .milliseconds(timeoutMs)) == .timedOut } ?? false
        state.withLock { s in
            if timedOut, let parked { s.waiters.unpark(parked) }
            s.seenByWaiter = s.data.count
        }
    }

    /// True once `finish()` has been called.
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Bytes received so far.
    public var byteCount: Int { state.withLock { $0.data.count } }

    /// The source over the bytes so far (its frames are the complete ones),
    /// or nil while not even the header is complete.
    public var source: ImageSource? {
        state.withLock { s in
            refresh(&s)
            return s.current
        }
    }

    /// Complete frames so far.
    public var frameCount: Int { source?.frameCount ?? 0 }

    /// A definitive problem: the data is not an image, breaks a limit, or
    /// (after `finish()`) ends early. Running out of data before `finish()`
    /// is not an error.
    public var error: AnimError? {
        state.withLock { s in
            refresh(&s)
            return s.failure ?? (s.finished ? s.current?.indexError : nil)
        }
    }

    /// Frame `index` if it is complete.
    public func frame(at index: Int) throws -> FrameResult {
        guard let source = self.source, index < source.frameCount else {
            if let error = self.error, isFinished || error.code != .truncated { throw error }
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
    private func refresh(_ s: inout State) {
        guard s.dirty, s.finished || s.data.count - s.indexedSize >= max(1, s.indexedSize / 8) else { return }
        s.dirty = false
        s.indexedSize = s.data.count
        do {
            let next = try ImageSource(store: ByteStore(s.data), name: name, options: options, partial: !s.finished)
            if let old = s.current { next.continueDecoding(from: old) }
            s.current = next
            s.failure = nil
        } catch let e as AnimError {
            // Before the end, running out of data is only data still to come.
            if s.finished || e.code != .truncated { s.failure = e }
        } catch {
            s.failure = AnimError(file: name, LibraryFailure(library: "AnimKit", message: "\(error)"))
        }
    }
}
