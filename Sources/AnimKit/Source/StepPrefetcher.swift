import Dispatch

/// Decodes the next steps on other threads while the current one is being
/// composited, so a file read in order uses every core: the decodes of
/// different frames are independent, only compositing is sequential.
///
/// At most `depth` jobs are in flight, each a step or a batch of small ones;
/// buffers are reused. Not `Sendable`: used only with the source's lock
/// held; the workers get a `Job` each, never the prefetcher.
final class StepPrefetcher {
    private let steps: [Step]
    /// Per step, its decoding work (its pixels, and its data bytes) and the
    /// bytes it needs in a job's buffer (its patch, twice when converted too;
    /// a split decoder's prepared data).
    private let works: [(pixels: Int, bytes: Int)], needs: [Int]
    /// Per step, whether its patch is converted to sRGB too, on the decoding
    /// thread: its region then holds the patch twice, as decoded and converted
    /// (for the converted canvas: a replacing step).
    private let converts: [Bool]
    /// What a worker runs for one step of a job.
    private let decodeStep: (Job, Int) throws -> Void
    private let lanes: Lanes
    /// The most jobs in flight.
    let depth: Int
    /// The jobs scheduled and not yet wholly taken, in step order.
    private var jobs: [Job] = []
    private var pool: [UnsafeMutableRawBufferPointer] = []
    /// Whether the workers get a core of their own.
    private var starvation = Starvation()
    /// The most bytes of a batch's buffer (`DecodeAheadPolicy.batch`).
    private let batchCap: Int
    /// Whether steps are taken within `DecodeAheadPolicy.warm` of each other,
    /// and when the last was taken.
    private var pace = (hot: true, lastTake: Int64(0))

    /// Nil when the whole file is not worth one hand-over.
    init?(
        decoder: StepDecoder, steps: [Step], depth: Int, transform: ColorTransform? = nil,
        run: @escaping @Sendable (Int64, @escaping @Sendable () -> Void) -> Void = { WorkerPool.shared.run(warm: $0, $1) }
    ) {
        // A split decoder's first part runs ahead, not the whole decode: its
        // pixel work stays on the compositor's thread.
        let split = decoder as? SplitStepDecoder
        works = steps.indices.map { s in
            let rect = steps[s].rect
            return rect.isEmpty ? (0, 0) : (split == nil ? rect.width * rect.height : 0, decoder.dataRange(step: s).count)
        }
        let total = works.reduce((pixels: 0, bytes: 0)) { ($0.pixels + $1.pixels, $0.bytes + $1.bytes) }
        guard Self.isWorthHandingOver(total) else { return nil }
        let converts = steps.map { split == nil && transform != nil && Compositor.replaces($0) }
        needs = steps.indices.map { s in
            split?.preparedBytes(step: s) ?? steps[s].rect.width * steps[s].rect.height * 4 * (converts[s] ? 2 : 1)
        }
        (self.steps, self.depth, self.converts) = (steps, depth, converts)
        lanes = Lanes(most: WorkerPool.cores - DecodeAheadPolicy.coresKept, run: run)
        batchCap = max(DecodeAheadPolicy.batch.bytes, needs.max() ?? 0)
        decodeStep = { job, s in
            let region = job.region(s)
            if let split {
                job.prepared[s - job.steps.lowerBound] = try split.prepare(step: s, into: region)
                return
            }
            let rect = steps[s].rect
            try decoder.decode(step: s, into: PixelTarget(base: region.baseAddress!, stride: rect.width * 4, masked: false))
            if converts[s] {
                let bytes = rect.width * rect.height * 4
                transform?.convert(region.baseAddress!, into: region.baseAddress! + bytes, count: bytes / 4)
            }
        }
    }

    deinit {
        cancel(outside: nil)
        for b in pool { b.deallocate() }
    }

    /// Whether `work` is worth handing to another thread (`DecodeAheadPolicy.minimum`).
    private static func isWorthHandingOver(_ work: (pixels: Int, bytes: Int)) -> Bool {
        work.bytes >= DecodeAheadPolicy.minimum.bytes || work.pixels >= DecodeAheadPolicy.minimum.pixels
    }

    /// Starts decoding, while fewer than `depth` jobs are in flight, the steps
    /// from `range`'s start not started yet, as jobs that begin within `range`:
    /// a step alone when it is worth handing over, else a batch of the small
    /// steps after it (up to `DecodeAheadPolicy.batch`, maybe past `range`)
    /// when together they are worth it; else they are left to the caller.
    func schedule(_ range: ClosedRange<Int>) {
        guard !starvation.pauses() else { return }
        var s = range.lowerBound
        while s <= range.upperBound && s < steps.count && jobs.count < depth {
            if let job = jobs.first(where: { $0.steps.contains(s) }) {
                s = job.steps.upperBound
                continue
            }
            var (end, size, work) = (s, 0, (pixels: 0, bytes: 0))
            var offsets: [Int] = []
            while end < steps.count && end - s < DecodeAheadPolicy.batch.steps {
                let (need, own) = (needs[end], works[end])
                // A step worth it alone goes alone.
                if steps[end].rect.isEmpty || (end > s && (size + need > batchCap || Self.isWorthHandingOver(own)))
                    || jobs.contains(where: { $0.steps.contains(end) })
                {
                    break
                }
                offsets.append(size)
                size += need
                work = (work.pixels + own.pixels, work.bytes + own.bytes)
                end += 1
                if Self.isWorthHandingOver(own) { break }
            }
            guard Self.isWorthHandingOver(work) else {
                s = max(end, s + 1)  // left to the caller
                continue
            }
            let job = Job(steps: s..<end, buffer: buffer(size), offsets: offsets, decode: decodeStep)
            jobs.insert(job, at: jobs.firstIndex { $0.steps.lowerBound > job.steps.lowerBound } ?? jobs.count)
            lanes.add(job, warm: pace.hot ? DecodeAheadPolicy.warm : 0)
            s = end
        }
    }

    /// The finished decode of step `s`, waiting for it if a worker is on it
    /// (meanwhile decoding here the jobs no worker has started); nil when
    /// none was scheduled or no worker has reached it: then the caller decodes
    /// it rather than wait for a worker to wake. Give it back with `finished`.
    func take(_ s: Int) -> Decoded? {
        let now = Spin.now()
        pace = (pace.lastTake == 0 || now - pace.lastTake < DecodeAheadPolicy.warm, now)
        guard let i = jobs.firstIndex(where: { $0.steps.contains(s) }) else { return nil }
        let job = jobs[i]
        let last = s == job.steps.last
        if !job.takeBack(s) {
            // The worker starts from the last step: without it, it never started.
            if last {
                jobs.remove(at: i)
                _ = lanes.remove(job)
                recycle(job)
            }
            return nil
        }
        if !job.waited {
            // While a worker decodes it, decode the jobs waiting for one here.
            let ended = { job.finished.load(ordering: .acquiring) }
            while !ended(), let other = lanes.next() { other.perform() }
            _ = Spin.until(DecodeAheadPolicy.spin, ended)
            job.done.wait()
            job.waited = true
            starvation.record(wall: job.times.wall, cpu: job.times.cpu)
        }
        if last { jobs.remove(at: i) }
        return Decoded(job: job, step: s, converted: converts[s])
    }

    /// Gives a taken step's job back: its buffer is reused once every step
    /// it holds has been taken. Buffers in flight and kept together stay at
    /// most `depth + 1` (`WorkingSet`).
    func finished(_ decoded: Decoded) {
        if !jobs.contains(where: { $0 === decoded.job }) { recycle(decoded.job) }
    }

    private func recycle(_ job: Job) {
        pool.append(job.buffer)
        if pool.count + jobs.count > depth + 1, let i = pool.indices.min(by: { pool[$0].count < pool[$1].count }) {
            pool.remove(at: i).deallocate()
        }
    }

    /// Drops the jobs with no step in `keep` (all of them with nil),
    /// waiting for those running.
    func cancel(outside keep: ClosedRange<Int>?) {
        let dropped = jobs.filter { !(keep?.overlaps($0.steps) ?? false) }
        jobs.removeAll { !(keep?.overlaps($0.steps) ?? false) }
        for job in dropped {
            stop(job)
            recycle(job)
        }
    }

    /// Makes sure no thread decodes `job` from now on: off the queue, or
    /// every step not yet claimed taken back, waiting for those claimed.
    private func stop(_ job: Job) {
        if !lanes.remove(job) && job.dropAll() && !job.waited { job.done.wait() }
    }

    private func buffer(_ bytes: Int) -> UnsafeMutableRawBufferPointer {
        if let i = pool.firstIndex(where: { $0.count >= bytes }) { return pool.remove(at: i) }
        return .allocate(byteCount: max(bytes, 1), alignment: 16)
    }
}
