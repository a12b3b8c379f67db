import Dispatch

/// Decodes the next steps on other threads while the current one is being
/// composited, so a file read in order uses every core: GIF's LZW, libpng's
/// inflate and WebP's VP8 decode of different frames are independent, only
/// compositing is sequential.
///
/// At most `depth` jobs are in flight, each a step or a batch of small
/// ones; buffers are reused. Not `Sendable`: used only from the thread
/// holding the source's lock; the workers get a `Job` each, never the
/// prefetcher.
final class StepPrefetcher {
    private let decoder: StepDecoder
    private let steps: [Step]
    /// A split decoder's first part runs ahead, not the whole decode.
    private let split: SplitStepDecoder?
    /// Converts the replacing steps' patches too, on the decoding thread.
    private let transform: ColorTransform?
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
    /// The most bytes of a batch's buffer: the largest step's, or
    /// `DecodeAheadPolicy.batch.bytes`.
    private let batchCap: Int
    /// Whether steps are taken within `DecodeAheadPolicy.warm` of each
    /// other (reading as fast as they decode), and when the last was taken.
    private var pace = (hot: true, lastTake: Int64(0))

    /// Nil when the whole file is not worth one hand-over: then decoding
    /// ahead would only cost.
    init?(
        decoder: StepDecoder, steps: [Step], depth: Int, transform: ColorTransform? = nil,
        run: @escaping @Sendable (Int64, @escaping @Sendable () -> Void) -> Void = { WorkerPool.shared.run(warm: $0, $1) }
    ) {
        let split = decoder as? SplitStepDecoder
        var total = (pixels: 0, bytes: 0)
        for s in steps.indices {
            let work = Self.work(steps[s].rect, bytes: decoder.dataRange(step: s).count, split: split != nil)
            total = (total.pixels + work.pixels, total.bytes + work.bytes)
        }
        guard Self.isWorthHandingOver(total) else { return nil }
        (self.decoder, self.steps, self.split, self.transform, self.depth) = (decoder, steps, split, transform, depth)
        lanes = Lanes(most: WorkerPool.cores - DecodeAheadPolicy.coresKept, run: run)
        let largest = steps.indices.map { Self.need(steps[$0], split: split, index: $0, transform: transform) }.max()
        batchCap = max(DecodeAheadPolicy.batch.bytes, largest ?? 0)
        decodeStep = { job, s in
            let region = job.region(s)
            let i = s - job.steps.lowerBound
            if let split {
                job.prepared[i] = try split.prepare(step: s, into: region)
                return
            }
            let rect = steps[s].rect
            try decoder.decode(step: s, into: PixelTarget(base: region.baseAddress!, stride: rect.width * 4, masked: false))
            if job.converted[i] {
                let bytes = rect.width * rect.height * 4
                transform?.convert(region.baseAddress!, into: region.baseAddress! + bytes, count: bytes / 4)
            }
        }
    }

    deinit {
        for job in jobs {
            stop(job)
            job.buffer.deallocate()
        }
        for b in pool { b.deallocate() }
    }

    /// The decoding work of a step: its pixels (a split decoder's pixel
    /// work stays on the compositor's thread) and its data bytes.
    private static func work(_ rect: Rect, bytes: Int, split: Bool) -> (pixels: Int, bytes: Int) {
        rect.isEmpty ? (0, 0) : (split ? 0 : rect.width * rect.height, bytes)
    }

    /// Whether `work` is worth handing to another thread
    /// (`DecodeAheadPolicy.minimum`); smaller steps go in batches.
    private static func isWorthHandingOver(_ work: (pixels: Int, bytes: Int)) -> Bool {
        work.bytes >= DecodeAheadPolicy.minimum.bytes || work.pixels >= DecodeAheadPolicy.minimum.pixels
    }

    /// The bytes step `s` needs in a job's buffer: its patch (twice when it
    /// is converted too), or a split decoder's prepared data.
    private static func need(_ step: Step, split: SplitStepDecoder?, index s: Int, transform: ColorTransform?) -> Int {
        if let split { return split.preparedBytes(step: s) }
        return step.rect.width * step.rect.height * 4 * (converts(step, transform: transform) ? 2 : 1)
    }

    private static func converts(_ step: Step, transform: ColorTransform?) -> Bool {
        transform != nil && Compositor.replaces(step)
    }

    /// Starts decoding, while fewer than `depth` jobs are in flight, the
    /// steps from `range`'s start that are not started, as jobs that begin
    /// within `range`: a step alone when it is worth handing over, else a
    /// batch of the small steps after it, up to `DecodeAheadPolicy.batch`
    /// (it may reach past `range`), when together they are worth it; else
    /// they are left to the caller.
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
            var converted: [Bool] = []
            while end < steps.count && end - s < DecodeAheadPolicy.batch.steps {
                let step = steps[end]
                let need = Self.need(step, split: split, index: end, transform: transform)
                let own = Self.work(step.rect, bytes: decoder.dataRange(step: end).count, split: split != nil)
                // A step worth it alone goes alone.
                if step.rect.isEmpty || (end > s && (size + need > batchCap || Self.isWorthHandingOver(own)))
                    || jobs.contains(where: { $0.steps.contains(end) })
                {
                    break
                }
                offsets.append(size)
                converted.append(split == nil && Self.converts(step, transform: transform))
                size += need
                work = (work.pixels + own.pixels, work.bytes + own.bytes)
                end += 1
                if Self.isWorthHandingOver(own) { break }
            }
            guard Self.isWorthHandingOver(work) else {
                s = max(end, s + 1)  // left to the caller
                continue
            }
            let job = Job(steps: s..<end, buffer: buffer(size), offsets: offsets, converted: converted, decode: decodeStep)
            jobs.insert(job, at: jobs.firstIndex { $0.steps.lowerBound > job.steps.lowerBound } ?? jobs.count)
            lanes.add(job, warm: pace.hot ? DecodeAheadPolicy.warm : 0)
            s = end
        }
    }

    /// The finished decode of step `s`, waiting for it if a worker is on
    /// it (meanwhile decoding here the jobs no worker has started); nil
    /// when none was scheduled or no worker has reached it: then the caller
    /// decodes it rather than wait for a worker to wake. Give it back with
    /// `finished`.
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
        return Decoded(job: job, step: s)
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
        guard !dropped.isEmpty else { return }
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
