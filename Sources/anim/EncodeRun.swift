import AnimKit
import AnimTerminal

/// Writes frames to an `ImageDestination` with a progress bar; on any
/// error the destination is abandoned (nothing left behind).
enum EncodeRun {
    static func write(
        count: Int, to out: String, format: OutputFormat, options: EncodingOptions, label: String,
        stats: Bool = false, reading: DecodingOptions,
        frame: sending @escaping (Int) throws -> (RGBAImage, Duration?)
    ) throws {
        let start = Measure.milliseconds()
        var existing = stat()
        let existed = stat(out, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG
        var options = options
        options.frameCount = count  // for APNG to a pipe or device (see EncodingOptions)
        let destination = try TemporaryFileGuard.protect {
            try ImageDestination(path: out, format: format, options: options)
        }
        defer { TemporaryFileGuard.release() }
        var progress = Progress(total: count, label: label)
        defer { progress.end() }
        // The next frame is read on another thread while this one is encoded.
        let reader = FrameReader(frame)
        var starts: [Duration] = []
        var t = Duration.zero
        do {
            var next = count > 0 ? reader.start(0) : nil
            try destination.write(
                count: count, added: { progress.update($0) },
                frame: { i in
                    let (image, duration) = try next!.get().get()
                    next = i + 1 < count ? reader.start(i + 1) : nil
                    starts.append(t)
                    t += duration ?? options.defaultDuration
                    return (image, duration)
                })
            if stats {
                Output.err(
                    JSONValue.object([
                        ("framesAdded", .int(destination.framesAdded)), ("framesWritten", .int(destination.framesWritten)),
                        ("bytesWritten", .int(destination.bytesWritten)),
                        ("seconds", .number((Measure.milliseconds() - start).rounded() / 1000)),
                        ("peakRSSBytes", .int(Measure.peakRSS())),
                    ]).text + "\n")
            }
        } catch {
            // Say what became of OUT (a device or pipe keeps what reached it).
            let regular = destination.temporaryPath != nil
            throw EncodeFailure(
                error: error,
                outcome: !regular
                    ? ""
                    : existed
                        ? "nothing written: \(out) is as it was" : "nothing written: no \(out) was created")
        }
        // OUT is in place from here on: an error measuring it leaves it there.
        if options.lossy > 0 && destination.temporaryPath != nil {
            try reportQuality(out, lossy: options.lossy, starts: starts, reading: reading, reference: { try reader.read($0).0 })
        }
    }
}

extension EncodeRun {
    /// Says how close a lossy output came to its frames: the mean PSNR of
    /// the frames as decoded against those given, and the lowest.
    /// `reading`: how the output is read back, as the frames were read.
    static func reportQuality(
        _ out: String, lossy: Int, starts: [Duration], reading: DecodingOptions, reference: (Int) throws -> RGBAImage
    ) throws {
        let written = try ImageSource(path: out, options: reading)
        let c = try ShownComparison.compare(count: starts.count, starts: starts, reference: reference, shown: written)
        let db = { (v: Double) in v >= ShownComparison.identical ? "identical" : String(format1: v) + " dB" }
        Output.err(
            "anim: \(out): lossy \(lossy): mean PSNR \(db(c.meanPSNR)) against the input frames"
                + (c.firstDifferent == nil ? "\n" : " (lowest \(db(c.minPSNR)), frame \(c.worstFrame))\n"))
    }
}

/// An encoding error and what it left: the error's own text, then the outcome.
struct EncodeFailure: Error, CustomStringConvertible {
    let error: Error
    let outcome: String
    var description: String { outcome.isEmpty ? "\(error)" : "\(error)\nanim: \(outcome)" }
}

/// Reads frames on the worker pool, one ahead of the encoder. The frame
/// function runs behind `frame`'s lock, for one index at a time, so it
/// may keep state.
///
/// `@unchecked Sendable`: the frame function is not `Sendable`, but it is
/// handed over (`sending`) when the reader is made, so no other reference
/// to it remains, and it is called only with its lock held.
final class FrameReader: @unchecked Sendable {
    typealias Frame = (RGBAImage, Duration?)
    private let frame: Locked<(Int) throws -> Frame>
    init(_ frame: sending @escaping (Int) throws -> Frame) { self.frame = Locked(frame) }

    /// Frame `index`, read on this thread.
    func read(_ index: Int) throws -> Frame { try frame.withLock { try $0(index) } }

    /// Frame `index`, read on the pool.
    func start(_ index: Int) -> Pending<Result<Frame, Error>> {
        WorkerPool.shared.submit { Result { try self.read(index) } }
    }
}

/// Ctrl-C, SIGTERM or SIGHUP while encoding: the temporary file is
/// removed (unlink and _exit: async-signal-safe) and the exit status is
/// 128 + the signal, so an interrupted encode leaves nothing behind either.
enum TemporaryFileGuard {
    nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar>?
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Makes the destination with the handlers already in place and the
    /// signals held back on this thread, so that no moment passes between
    /// its temporary file appearing and the guard knowing it (a SIGTERM
    /// in that gap left the file behind).
    static func protect(_ make: () throws -> ImageDestination) throws -> ImageDestination {
        path = nil  // made here, not first in a handler
        for s in signals {
            // A signal ignored by the parent (SIGHUP under nohup) stays ignored.
            let before = signal(s) { signo in
                if let p = TemporaryFileGuard.path { unlink(p) }
                _exit(128 + signo)
            }
            if let b = before, unsafeBitCast(b, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(s, SIG_IGN)
            }
            previousHandlers.append((s, before))
        }
        var held = sigset_t()
        var previous = sigset_t()
        sigemptyset(&held)
        for s in signals { sigaddset(&held, s) }
        pthread_sigmask(SIG_BLOCK, &held, &previous)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            Terminal.unblockSignals(signals)  // a parent's Dispatch thread may have blocked them
        }
        let destination = try make()
        if let temporary = destination.temporaryPath { path = strdup(temporary) }
        return destination
    }

    nonisolated(unsafe) private static var previousHandlers: [(Int32, __sighandler_t?)] = []

    static func release() {
        for (s, handler) in previousHandlers { signal(s, handler) }
        previousHandlers = []
        let p = path
        path = nil
        free(p)
    }
}

/// Checks on an output path before anything is written.
enum OutputPath {
    /// OUT must not be a folder, nor the same file as an input.
    static func check(_ out: String, notAnyOf inputs: [String]) throws {
        var st = stat()
        guard stat(out, &st) == 0 else { return }  // a new file: not an input
        if st.st_mode & S_IFMT == S_IFDIR {
            throw AnimError.io(path: out, operation: "write", errno: EISDIR, message: "is a folder")
        }
        for input in inputs {
            var s = stat()
            if stat(input, &s) == 0 && s.st_dev == st.st_dev && s.st_ino == st.st_ino {
                throw AnimError.io(path: out, operation: "write", errno: EINVAL, message: "it is also an input (\(input))")
            }
        }
    }
}
