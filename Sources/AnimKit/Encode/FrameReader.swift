/// Reads the frames a transcode writes, and reads the next one on the
/// worker pool while this one is encoded. The frame function runs behind
/// `frame`'s lock, for one index at a time, so it may keep state; it gives
/// nil where the frames end early (a damaged source).
///
/// `@unchecked Sendable`: the frame function is not `Sendable`, but it is
/// handed over (`sending`) when the reader is made, so no other reference
/// to it remains, and it is called only with its lock held.
final class FrameReader: @unchecked Sendable {
    typealias Frame = (image: RGBAImage, duration: Duration?)
    private let frame: Locked<(Int) throws -> Frame?>
    init(_ frame: sending @escaping (Int) throws -> Frame?) { self.frame = Locked(frame) }

    /// Frame `index`, read on this thread.
    func read(_ index: Int) throws -> Frame? { try frame.withLock { try $0(index) } }

    /// Adds frames 0, 1, … to `destination` (`ImageDestination.write`),
    /// reading each next one on the pool unless `ahead` is false (one
    /// thread: in a batch the files fill the cores). Returns the frames
    /// added and when each starts (nil durations taking the options' default).
    func write(
        count: Int, to destination: ImageDestination, ahead: Bool, added: (Int) -> Void
    ) throws -> (frames: Int, starts: [Duration]) {
        var next = count > 0 && ahead ? start(0) : nil
        var starts: [Duration] = []
        var t = Duration.zero
        let n = try destination.write(count: count, added: added) { i in
            guard let frame = try next?.get().get() ?? read(i) else { return nil }
            next = i + 1 < count && ahead ? start(i + 1) : nil
            starts.append(t)
            t += frame.duration ?? destination.options.defaultDuration
            return frame
        }
        return (n, starts)
    }

    private func start(_ index: Int) -> Pending<Result<Frame?, Error>> {
        WorkerPool.shared.submit { Result { try self.read(index) } }
    }
}
