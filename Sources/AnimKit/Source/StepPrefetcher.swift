import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes the next steps on other threads while the current one is being
/// composited, so a file read in order uses every core: GIF's LZW, libpng's
/// inflate and WebP's VP8 decode of different frames are independent, only
/// compositing is sequential.
///
/// At most `depth` decodes are in flight; buffers are reused. Not
/// `Sendable`: used only from the thread holding the source's lock; the
/// workers get a `Job` each, never the prefetcher.
final class StepPrefetcher {
    /// A decode running or done on another thread.
    /// `@unchecked Sendable`: its buffer and results are written by the
    /// worker before `done.signal()` and read only after `done.wait()` (or
    /// by the thread that claimed it instead: `claim`).
    final class Job: @unchecked Sendable {
        var buffer: UnsafeMutableRawBufferPointer
        /// For a `SplitStepDecoder`: `buffer` holds the prepared step and
        /// this what `prepare` returned; nil when `buffer` is the decoded patch.
        var prepared: Int?
        /// True when the buffer holds the patch twice: as decoded, then
        /// converted to sRGB (a replacing step of a colour-managed file,
        /// whose converted pixels are the converted canvas's).
        var converted = false
        var error: AnimError?
        /// The decode's wall time and the worker's CPU time for it, in
        /// nanoseconds (`Starvation`).
        var wall: Int64 = 0
        var cpu: Int64 = 0
        let done = DispatchSemaphore(value: 0)
        /// Who runs the decode: nobody yet, the worker, or nobody ever (the
        /// compositor's thread reached the step first and decodes it itself).
        private let owner = Locked(Owner.nobody)
        enum Owner { case nobody, worker, dropped }

        /// The decode, run by `perform` (set before the job is handed over).
        var decode: ((Job) throws -> Void)?

        init(buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

        /// Runs the decode on a worker, unless the compositor took it back.
        func perform(step s: Int) {
            guard let decode, claim(.worker) else { return }  // taken back: the buffer is not ours
            let (wall, cpu) = (Starvation.now(CLOCK_MONOTONIC), Starvation.now(CLOCK_THREAD_CPUTIME_ID))
            do {
                try decode(self)
            } catch let e as AnimError {
                error = e
            } catch {
                self.error = .library(file: "", frame: s, library: "decoder", message: "\(error)")
            }
            // (Written before the signal, not in a defer: that would run after it.)
            self.wall = Starvation.now(CLOCK_MONOTONIC) - wall
            self.cpu = Starvation.now(CLOCK_THREAD_CPUTIME_ID) - cpu
            done.signal()
        }

        /// Makes `who` the job's owner if it has none; false when it has.
        func claim(_ who: Owner) -> Bool {
            owner.withLock {
                guard $0 == .nobody else { return false }
                $0 = who
                return true
            }
        }
    }

    private let decoder: StepDecoder
    private let steps: [Step]
    /// Converts the replacing steps' patches too, on the decoding thread.
    private let transform: ColorTransform?
    /// Where the decodes run: the library's `WorkerPool` (a test may hand
    /// them to a queue it holds suspended).
    private let run: @Sendable (@escaping @Sendable () -> Void) -> Void
    let depth: Int
    private var jobs: [Int: Job] = [:]
    private var pool: [UnsafeMutableRawBufferPointer] = []

    /// A split decoder's first part runs ahead, not the whole decode.
    private let split: SplitStepDecoder?
    /// Per step: worth handing to another thread (`worthHandingOver`).
    private let worth: [Bool]
    /// Whether the workers get a core of their own (`Starvation`).
    private var starvation = Starvation()

    /// Nil when no step of the file is worth handing over: then decoding
    /// ahead would only cost.
    init?(
        decoder: StepDecoder, steps: [Step], depth: Int, transform: ColorTransform? = nil,
        run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { WorkerPool.shared.run($0) }
    ) {
        self.run = run
        self.decoder = decoder
        self.transform = transform
        self.steps = steps
        self.depth = depth
        split = decoder as? SplitStepDecoder
        worth = steps.indices.map {
            Self.worthHandingOver(steps[$0].rect, bytes: decoder.dataRange(step: $0).count, split: decoder is SplitStepDecoder)
        }
        if !worth.contains(true) { return nil }
    }

    deinit {
        for job in jobs.values {
            if !job.claim(.dropped) { job.done.wait() }
            job.buffer.deallocate()
        }
        for b in pool { b.deallocate() }
    }

    /// Whether a step is worth handing to another thread: a step whose
    /// data is under 8 KiB, and (but for a split decoder, whose pixel work
    /// stays on the compositor's thread) under 16384 pixels, costs less to
    /// decode here than the hand-over costs. Measured: with every step
    /// handed over, decoding ahead made the sticker (240×240) and screen
    /// recording (800×600, a few KiB a frame) GIFs of Tools/bench/set 1.1–1.6×
    /// slower than one thread.
    static func worthHandingOver(_ rect: Rect, bytes: Int, split: Bool) -> Bool {
        guard !rect.isEmpty else { return false }
        if bytes >= 8192 { return true }
        return !split && rect.width * rect.height >= 16_384
    }

    /// Starts decoding the steps of `range` that are not started, while
    /// fewer than `depth` are in flight.
    func schedule(_ range: ClosedRange<Int>) {
        guard !starvation.pauses() else { return }
        for s in range where jobs[s] == nil && jobs.count < depth {
            let rect = steps[s].rect
            guard worth[s] else { continue }
            let split = self.split
            let bytes = rect.width * rect.height * 4
            let transform = split == nil && Compositor.replaces(steps[s]) ? self.transform : nil
            let job = Job(buffer: buffer(split?.preparedBytes(step: s) ?? bytes * (transform == nil ? 1 : 2)))
            job.converted = transform != nil
            jobs[s] = job
            let decoder = self.decoder
            job.decode = { job in
                if let split {
                    job.prepared = try split.prepare(step: s, into: job.buffer)
                } else {
                    try decoder.decode(
                        step: s, into: PixelTarget(base: job.buffer.baseAddress!, stride: rect.width * 4, masked: false))
                    transform?.convert(job.buffer.baseAddress!, into: job.buffer.baseAddress! + bytes, count: bytes / 4)
                }
            }
            // Weakly: a job taken back and dropped before a worker reached
            // it must not keep its decoder (and the file) in the pool's queue.
            run { [weak job] in job?.perform(step: s) }
        }
    }

    /// The finished decode of step `s`, waiting for it if it is running;
    /// nil when none was scheduled, or when no thread has started it yet:
    /// then the caller decodes the step itself rather than wait for a
    /// worker to wake up (with many small steps between the large ones,
    /// waiting cost more than decoding ahead saved).
    func take(_ s: Int) -> Job? {
        guard let job = jobs.removeValue(forKey: s) else { return nil }
        if job.claim(.dropped) {
            recycle(job)
            return nil
        }
        job.done.wait()
        starvation.record(step: s, wall: job.wall, cpu: job.cpu)
        return job
    }

    /// Gives a taken job's buffer back for reuse. Buffers in flight and
    /// kept together stay at most `depth + 1` (`WorkingSet`).
    func recycle(_ job: Job) {
        pool.append(job.buffer)
        if pool.count + jobs.count > depth + 1, let i = pool.indices.min(by: { pool[$0].count < pool[$1].count }) {
            pool.remove(at: i).deallocate()
        }
    }

    /// Drops the decodes of steps outside `keep`, waiting for them to end.
    func cancel(outside keep: ClosedRange<Int>) {
        for (s, job) in jobs where !keep.contains(s) {
            if !job.claim(.dropped) { job.done.wait() }
            jobs[s] = nil
            recycle(job)
        }
    }

    private func buffer(_ bytes: Int) -> UnsafeMutableRawBufferPointer {
        if let i = pool.firstIndex(where: { $0.count >= bytes }) {
            return pool.remove(at: i)
        }
        return .allocate(byteCount: bytes, alignment: 16)
    }
}

/// Whether decoding ahead pays on this machine now. On two cores with
/// another program busy on one, a worker thread gets half a core: a decode
/// takes twice its CPU time and the compositor waits for it, and decoding
/// ahead made small files 1.1–1.4× slower than one thread
/// (`Tools/bench/busy.sh`). A decode whose wall time is more than twice
/// its CPU time (and 0.2 ms) was kept off a core; after three such decodes
/// in a row, nothing is handed over for the next 32 steps, which the
/// compositor decodes itself; then decoding ahead is tried again.
struct Starvation {
    private var strikes = 0
    /// Calls to `schedule` left that hand nothing over.
    private var paused = 0

    /// True (and one fewer left) while nothing is to be handed over.
    mutating func pauses() -> Bool {
        guard paused > 0 else { return false }
        paused -= 1
        return true
    }

    mutating func record(step: Int, wall: Int64, cpu: Int64) {
        if wall > 2 * cpu + 200_000 {
            strikes += 1
            if strikes >= 3 {
                strikes = 0
                paused = 32
            }
        } else {
            strikes = 0
        }
    }

    /// Whether it is pausing now (for tests).
    var isPausing: Bool { paused > 0 }

    static func now(_ clock: clockid_t) -> Int64 {
        var t = timespec()
        clock_gettime(clock, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}
