import AnimKit
import AnimTerminal

/// Writes frames to an `ImageDestination` with a progress bar; on any
/// error the destination is abandoned (nothing left behind).
enum EncodeRun {
    static func write(
        count: Int, to out: String, format: OutputFormat, options: EncodingOptions, label: String,
        stats: Bool = false, showProgress: Bool = true, readAhead: Bool = true, reading: DecodingOptions,
        frame: sending @escaping (Int) throws -> (RGBAImage, Duration?)
    ) throws {
        let start = Measure.milliseconds()
        var existing = stat()
        let existed = stat(out, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG
        var options = options
        options.frameCount = count  // for APNG to a pipe or device (see EncodingOptions)
        var slot: TemporaryFileGuard.Slot?
        let destination = try TemporaryFileGuard.protect(&slot) {
            // Standard output: made in memory, then written, so that the
            // bytes are those a file would get (APNG chooses its pixel
            // format after the frames, reading back what it wrote).
            out == "-"
                ? try ImageDestination(format: format, options: options, name: "<stdout>")
                : try ImageDestination(path: out, format: format, options: options)
        }
        defer { TemporaryFileGuard.release(slot) }
        var progress = Progress(total: count, label: label, enabled: showProgress)
        defer { progress.end() }
        // The next frame is read on another thread while this one is encoded.
        let reader = FrameReader(frame)
        var starts: [Duration] = []
        var t = Duration.zero
        do {
            // (In a batch each file keeps to one thread: the files fill the cores.)
            var next = count > 0 && readAhead ? reader.start(0) : nil
            try destination.write(
                count: count, added: { progress.update($0) },
                frame: { i in
                    let (image, duration) = try next?.get().get() ?? reader.read(i)
                    next = i + 1 < count && readAhead ? reader.start(i + 1) : nil
                    starts.append(t)
                    t += duration ?? options.defaultDuration
                    return (image, duration)
                })
            if out == "-", let data = destination.data { try OutputPath.write(data, to: out) }
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
