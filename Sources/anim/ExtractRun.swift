@_spi(AnimTools) import AnimKit
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// `anim extract`'s writing: frames handed over in order (decoded on the
/// caller's thread) are encoded on every core and written, a file each
/// into a folder or one after the other on standard output, in order.
/// At most `cores + 2` frames are in flight, so memory stays a few frames
/// whatever the length. The first failure stops it; a closed standard
/// output stops it quietly (`closed`).
///
/// `@unchecked Sendable`: the mutable fields are touched only with `lock`
/// held; `format`, `color`, `target` are constants.
final class ExtractRun: @unchecked Sendable {
    enum Target {
        /// A file per frame: the folder and the frame's name.
        case folder(String, FrameNaming)
        /// One after the other on this descriptor, in order.
        case stream(Int32)
    }

    let format: ExtractFormat
    let color: PNGFile.Color
    let target: Target
    /// libdeflate's level: `PNGFile.defaultLevel`, or 1 when there are
    /// fewer frames than cores (a still, a few frames): each frame's encoding
    /// is then the wait itself, not hidden behind the others' (a
    /// 24-megapixel photograph: 1.9 s at 3, 1.3 s at 1, 1% larger).
    let level: Int
    private let lock = DispatchSemaphore(value: 1)
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let workers = WorkerThreads(count: WorkerThreads.cores)
    private var failure: Error?
    private var ready: [Int: [UInt8]] = [:]
    private var nextToWrite: Int
    private var done = 0
    private var bytes = 0
    /// True once the reader of the stream went away (EPIPE).
    private(set) var closed = false

    /// `frames`: how many will be handed over (nil: not known, a stream).
    init(format: ExtractFormat, color: PNGFile.Color, target: Target, first: Int, frames: Int?) {
        self.format = format
        self.color = color
        self.target = target
        level = (frames ?? Int.max) < WorkerThreads.cores ? 1 : PNGFile.defaultLevel
        nextToWrite = first
        slots = DispatchSemaphore(value: WorkerThreads.cores + 2)
    }

    /// Frames written so far and their bytes.
    var progress: (frames: Int, bytes: Int) {
        lock.wait()
        defer { lock.signal() }
        return (done, bytes)
    }

    /// Whether to go on: no failure, and the stream still has a reader.
    var isRunning: Bool {
        lock.wait()
        defer { lock.signal() }
        return failure == nil && !closed
    }

    /// Hands over frame `index` (the next in order); waits while the
    /// frames in flight are at their bound.
    func submit(_ image: RGBAImage, index: Int) {
        slots.wait()
        group.enter()
        workers.run {
            defer { self.group.leave() }
            do {
                let encoded = try self.format.encode(image, color: self.color, level: self.level)
                switch self.target {
                case .folder(let dir, let naming):
                    try AtomicFile.write(encoded, to: dir + "/" + naming.name(index), durable: false)
                    self.finished(encoded.count)
                    self.slots.signal()
                case .stream(let fd): self.queueForStream(encoded, index: index, fd: fd)
                }
            } catch {
                self.fail(error)
                // Its place in the stream's order is passed, so the frames
                // after it free their slots too.
                if case .stream(let fd) = self.target {
                    self.queueForStream([], index: index, fd: fd)
                } else {
                    self.slots.signal()
                }
            }
        }
    }

    /// Writes frame `index` straight from the source's canvas to the stream
    /// (raw RGBA and PAM need no encoding: no copy of the frame, no worker);
    /// only while nothing is in flight, so the order holds.
    func writeDirect(_ header: [UInt8], _ pixels: UnsafeRawBufferPointer, index: Int) {
        guard case .stream(let fd) = target else { return }
        lock.wait()
        defer { lock.signal() }
        guard failure == nil, !closed, index == nextToWrite else { return }
        var e = Self.writeAll(fd, header)
        if e == 0 { e = Self.writeAll(fd, pixels) }
        wrote(header.count + pixels.count, result: e)
        nextToWrite += 1
    }

    /// Waits for every frame handed over; throws the first failure.
    func finish() throws {
        group.wait()
        workers.stop()
        lock.wait()
        defer { lock.signal() }
        if let failure { throw failure }
    }

    private func finished(_ count: Int) {
        lock.wait()
        done += 1
        bytes += count
        lock.signal()
    }

    private func fail(_ error: Error) {
        lock.wait()
        if failure == nil { failure = error }
        lock.signal()
    }

    /// The stream's frames go out in order: each waits in `ready` until
    /// those before it are written; its slot is freed once it is written.
    private func queueForStream(_ encoded: [UInt8], index: Int, fd: Int32) {
        lock.wait()
        ready[index] = encoded
        while let next = ready.removeValue(forKey: nextToWrite) {
            if failure == nil && !closed { wrote(next.count, result: Self.writeAll(fd, next)) }
            nextToWrite += 1
            slots.signal()
        }
        lock.signal()
    }

    /// Counts a frame of `count` bytes written to the stream, or records why
    /// not (`result`: 0 or an errno; EPIPE: the reader went away). With
    /// `lock` held.
    private func wrote(_ count: Int, result e: Int32) {
        switch e {
        case 0:
            done += 1
            bytes += count
        case EPIPE: closed = true
        default: failure = AnimError.io(path: "<stdout>", operation: "write", errno: e, message: String(cString: strerror(e)))
        }
    }

    /// Writes all of `bytes`; 0, or the errno that stopped it.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    private static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
        var off = 0
        while off < raw.count {
            let n = write(fd, raw.baseAddress! + off, raw.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            off += n
        }
        return 0
    }
}

/// The frames' file names: a printf-style pattern with one `%d` (`%05d`:
/// zero-padded to five digits), by default `frame-%05d.EXT`.
struct FrameNaming {
    let prefix: String
    let width: Int
    let suffix: String

    static func standard(_ format: ExtractFormat) -> FrameNaming {
        FrameNaming(prefix: "frame-", width: 5, suffix: "." + format.fileExtension)
    }

    /// `pattern` parsed; nil unless it has exactly one `%d` or `%0Nd`
    /// (N 1–9), no other `%` but `%%`, and no `/`.
    static func parse(_ pattern: String) -> FrameNaming? {
        guard !pattern.contains("/"), !pattern.isEmpty else { return nil }
        var prefix = ""
        var suffix = ""
        var width: Int?
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            if c != "%" {
                if width == nil { prefix.append(c) } else { suffix.append(c) }
                continue
            }
            guard let n = chars.popFirst() else { return nil }
            if n == "%" {
                if width == nil { prefix.append("%") } else { suffix.append("%") }
                continue
            }
            guard width == nil else { return nil }
            if n == "d" {
                width = 0
            } else if n == "0", let digit = chars.popFirst(), let w = Int(String(digit)), w >= 1, chars.popFirst() == "d" {
                width = w
            } else {
                return nil
            }
        }
        guard let width else { return nil }
        return FrameNaming(prefix: prefix, width: width, suffix: suffix)
    }

    func name(_ index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits + suffix
    }
}
