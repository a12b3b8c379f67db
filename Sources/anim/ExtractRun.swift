import AnimKit
import Dispatch
import Synchronization

/// `anim extract`'s writing: frames handed over in order (decoded on the
/// caller's thread) are encoded on every core (`WorkerPool`) and written,
/// a file each into a folder or one after the other on standard output,
/// in order. At most `cores + 2` frames are in flight (fewer where
/// `--max-memory` has room for fewer), so memory stays a few frames
/// whatever the length. The first failure stops it; a closed
/// standard output stops it quietly (`closed`).
final class ExtractRun: Sendable {
    enum Target {
        /// A file per frame: the folder, the frame's name, and whether this
        /// run made the folder.
        case folder(String, FrameNaming, created: Bool)
        /// One after the other on this descriptor, in order.
        case stream(Int32)
    }

    /// What the workers share, behind `state`'s lock.
    private struct State {
        var failure: Error?
        var ready: [Int: [UInt8]] = [:]
        var nextToWrite: Int
        var done = 0
        var bytes = 0
        var closed = false
        /// The frames written into the folder (their numbers).
        var onDisk: [Int] = []

        /// Counts a frame of `count` bytes written to the stream, or records
        /// why not (`result`: 0 or an errno; EPIPE: the reader went away).
        mutating func wrote(_ count: Int, result e: Int32) {
            switch e {
            case 0:
                done += 1
                bytes += count
            case EPIPE: closed = true
            default:
                failure = AnimError(file: "<stdout>", IOFailure(operation: "write", errno: e))
            }
        }
    }

    let format: ExtractFormat
    let color: PNGFile.Color
    let target: Target
    /// libdeflate's level: `PNGFile.defaultLevel`, or 1 when there are
    /// fewer frames than cores (a still, a few frames): each frame's encoding
    /// is then the wait itself, not hidden behind the others'.
    let level: Int
    private let state: Locked<State>
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()

    /// `frames`: how many will be handed over (nil: not known, a stream);
    /// `inFlight`: how many may be encoding or waiting at once (at most
    /// `cores + 2`; fewer where `--max-memory` has room for fewer).
    init(format: ExtractFormat, color: PNGFile.Color, target: Target, frames: Int?, inFlight: Int) {
        self.format = format
        self.color = color
        self.target = target
        level = (frames ?? Int.max) < WorkerPool.cores ? 1 : PNGFile.defaultLevel
        state = Locked(State(nextToWrite: 0))
        slots = DispatchSemaphore(value: max(inFlight, 1))
    }

    /// The frames written into the folder so far, in order ("0-6, 8").
    var framesOnDisk: String {
        var runs: [ClosedRange<Int>] = []
        for f in state.withLock({ $0.onDisk }).sorted() {
            if let last = runs.last, last.upperBound + 1 == f {
                runs[runs.count - 1] = last.lowerBound...f
            } else {
                runs.append(f...f)
            }
        }
        return runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
    }

    /// Frames written so far and their bytes.
    var progress: (frames: Int, bytes: Int) { state.withLock { ($0.done, $0.bytes) } }

    /// Whether to go on: no failure, and the stream still has a reader.
    var isRunning: Bool { state.withLock { $0.failure == nil && !$0.closed } }

    /// True once the reader of the stream went away (EPIPE).
    var closed: Bool { state.withLock { $0.closed } }

    /// Hands over frame `index`, the `position`th handed over (0, 1, …: a
    /// stream's order); waits while the frames in flight are at their bound.
    func submit(_ image: RGBAImage, index: Int, position: Int) {
        slots.wait()
        group.enter()
        WorkerPool.shared.run {
            defer { self.group.leave() }
            var encoded: [UInt8] = []
            do {
                encoded = try self.format.encode(image, color: self.color, level: self.level)
                if case .folder(let dir, let naming, _) = self.target {
                    try AtomicFile.write(encoded, to: dir + "/" + naming.name(index), durable: false)
                    self.state.withLock {
                        $0.wrote(encoded.count, result: 0)
                        $0.onDisk.append(index)
                    }
                }
            } catch {
                self.state.withLock { $0.failure = $0.failure ?? error }
            }
            // A frame that failed passes its place in the stream's order too,
            // so the frames after it free their slots.
            if case .stream(let fd) = self.target {
                self.queueForStream(encoded, position: position, fd: fd)
            } else {
                self.slots.signal()
            }
        }
    }

    /// Writes the `position`th frame straight from the source's canvas to
    /// the stream (raw RGBA and PAM need no encoding: no copy of the frame,
    /// no worker); only while nothing is in flight, so the order holds.
    func writeDirect(_ header: [UInt8], _ pixels: UnsafeRawBufferPointer, position: Int) {
        guard case .stream(let fd) = target else { return }
        state.withLock { s in
            guard s.failure == nil, !s.closed, position == s.nextToWrite else { return }
            var e = FileDescriptorIO.writeAll(fd, header)
            if e == 0 { e = FileDescriptorIO.writeAll(fd, pixels) }
            s.wrote(header.count + pixels.count, result: e)
            s.nextToWrite += 1
        }
    }

    /// Removes the folder when this run made it and wrote nothing into it
    /// (the input failed before its first frame).
    func removeFolderIfEmpty() {
        guard case .folder(let dir, _, true) = target, state.withLock({ $0.onDisk.isEmpty }) else { return }
        rmdir(dir)
    }

    /// Waits for every frame handed over; throws the first failure, saying
    /// which frames are in the folder (a folder this run made and left
    /// empty is removed).
    func finish() throws {
        group.wait()
        guard let failure = state.withLock({ $0.failure }) else { return }
        guard case .folder(let dir, _, let created) = target else { throw failure }
        let onDisk = framesOnDisk
        removeFolderIfEmpty()
        throw CommandFailure(
            failure,
            left: onDisk.isEmpty
                ? "no frame was written" + (created ? " (\(dir) removed)" : "")
                : onDisk.allSatisfy(\.isNumber) ? "frame \(onDisk) is in \(dir)" : "frames \(onDisk) are in \(dir)")
    }

    /// The stream's frames go out in order: each waits in `ready` until
    /// those before it are written; its slot is freed once it is written.
    private func queueForStream(_ encoded: [UInt8], position: Int, fd: Int32) {
        state.withLock { s in
            s.ready[position] = encoded
            while let next = s.ready.removeValue(forKey: s.nextToWrite) {
                if s.failure == nil && !s.closed { s.wrote(next.count, result: FileDescriptorIO.writeAll(fd, next)) }
                s.nextToWrite += 1
                slots.signal()
            }
        }
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
