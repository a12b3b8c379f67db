/// Reads the frames a transcode writes, and reads the next one on the
/// worker pool while this one is encoded; `read` gives nil where the frames
/// end early (a damaged source).
struct FrameReader: Sendable {
    typealias Frame = (image: RGBAImage, duration: Duration?)
    /// Frame `index`, read on the calling thread.
    let read: @Sendable (_ index: Int) throws -> Frame?

    /// The one frame loop of every transcode: adds frames 0, 1, … to
    /// `destination` until `count` or until the frames end, reading each
    /// next one on the pool unless `ahead` is false (one thread: in a batch
    /// the files fill the cores), calls `added` with the number added after
    /// each, then finishes. On any error the output is abandoned (nothing
    /// left behind) and the error thrown. Returns the frames added and when
    /// each starts (nil durations taking the options' default).
    func write(
        count: Int, to destination: ImageDestination, ahead: Bool, added: (Int) -> Void
    ) throws -> (frames: Int, starts: [Duration]) {
        var next = count > 0 && ahead ? start(0) : nil
        var starts: [Duration] = []
        var t = Duration.zero
        do {
            while starts.count < count, let (image, duration) = try next.map({ try $0.get().get() }) ?? read(starts.count) {
                next = starts.count + 1 < count && ahead ? start(starts.count + 1) : nil
                try destination.add(image, duration: duration)
                starts.append(t)
                t += duration ?? destination.options.defaultDuration
                added(starts.count)
            }
            try destination.finish()
        } catch {
            destination.cancel()
            throw error
        }
        return (starts.count, starts)
    }

    private func start(_ index: Int) -> Pending<Result<Frame?, Error>> {
        WorkerPool.shared.submit { Result { try read(index) } }
    }
}
