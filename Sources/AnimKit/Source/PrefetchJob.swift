import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension StepPrefetcher {
    /// A decode of one or more consecutive steps, handed to another thread
    /// at once (`StepPrefetcher.schedule`). The worker decodes from the last
    /// step back; the compositor's thread takes back the steps it reaches
    /// first, from the front, and decodes them itself: each step is claimed
    /// by one of them, and neither waits while the other wakes.
    ///
    /// `@unchecked Sendable`: the regions of its buffer and its results
    /// are written by the worker before `done.signal()` and read only after
    /// `done.wait()`; a step's owner changes under a lock.
    final class Job: @unchecked Sendable {
        /// The steps, each one's pixels (or prepared data) one after the
        /// other in `buffer`, from `offsets[i]`.
        let steps: Range<Int>
        var buffer: UnsafeMutableRawBufferPointer
        let offsets: [Int]
        /// For a `SplitStepDecoder`: what `prepare` returned, per step.
        var prepared: [Int]
        /// Per step, why its decode failed; the worker stops there.
        var errors: [AnimError?]
        /// The worker's wall and CPU time for its steps, in nanoseconds (`Starvation`).
        var times: (wall: Int64, cpu: Int64) = (0, 0)
        /// Signalled once the worker has stopped; `finished` is set just after,
        /// for a waiter that spins.
        let done = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        /// Set by the compositor's thread once it has waited for `done`.
        var waited = false
        /// Per step, who decodes it: nobody yet, the worker, or not the worker
        /// (`dropped`: the compositor's thread, or nobody once cancelled).
        private let owners: Locked<[Owner]>
        enum Owner { case nobody, worker, dropped }
        /// Decodes one step into its region.
        private let decode: (Job, Int) throws -> Void

        init(
            steps: Range<Int>, buffer: UnsafeMutableRawBufferPointer, offsets: [Int], decode: @escaping (Job, Int) throws -> Void
        ) {
            (self.steps, self.buffer, self.offsets, self.decode) = (steps, buffer, offsets, decode)
            prepared = Array(repeating: 0, count: steps.count)
            errors = Array(repeating: nil, count: steps.count)
            owners = Locked(Array(repeating: .nobody, count: steps.count))
        }

        /// Step `s`'s region of `buffer`.
        func region(_ s: Int) -> UnsafeMutableRawBufferPointer {
            let i = s - steps.lowerBound
            let end = i + 1 < offsets.count ? offsets[i + 1] : buffer.count
            return UnsafeMutableRawBufferPointer(rebasing: buffer[offsets[i]..<end])
        }

        /// On a worker: decodes the steps from the last back, until one the
        /// compositor's thread has taken back, or one that fails.
        func perform() {
            let (wall, cpu) = (Spin.now(CLOCK_MONOTONIC), Spin.now(CLOCK_THREAD_CPUTIME_ID))
            for s in steps.reversed() {
                guard settle(s, .worker) == .nobody else { break }  // taken back: this one and those before are not ours
                do {
                    try decode(self, s)
                } catch {
                    errors[s - steps.lowerBound] =
                        error as? AnimError
                        ?? AnimError(file: "", frame: s, LibraryFailure(library: "decoder", message: "\(error)"))
                    break
                }
            }
            // (Written before the signal, not in a defer: that would run after it.)
            times = (Spin.now(CLOCK_MONOTONIC) - wall, Spin.now(CLOCK_THREAD_CPUTIME_ID) - cpu)
            done.signal()
            // After the signal: a waiter that sees it waits without sleeping.
            finished.store(true, ordering: .releasing)
        }

        /// Makes `owner` the owner of step `s` if it has none; the owner it had.
        private func settle(_ s: Int, _ owner: Owner) -> Owner {
            owners.withLock {
                let had = $0[s - steps.lowerBound]
                if had == .nobody { $0[s - steps.lowerBound] = owner }
                return had
            }
        }

        /// Takes step `s` back for the compositor's thread unless the worker
        /// has claimed it; true when it has.
        func takeBack(_ s: Int) -> Bool { settle(s, .dropped) == .worker }

        /// Takes back every step no worker has claimed; true when a worker
        /// has claimed some (then wait for `done` before the buffer is reused).
        func dropAll() -> Bool {
            owners.withLock { owners in
                for i in owners.indices where owners[i] == .nobody { owners[i] = .dropped }
                return owners.contains(.worker)
            }
        }
    }

    /// Step `step` decoded ahead: its region of a job's buffer.
    struct Decoded {
        let job: Job
        let step: Int
        private var i: Int { step - job.steps.lowerBound }
        var patch: UnsafeMutableRawBufferPointer { job.region(step) }
        var prepared: Int { job.prepared[i] }
        /// Whether the patch holds its conversion to sRGB after it.
        let converted: Bool
        var error: AnimError? { job.errors[i] }
        /// Whether the step is its job's only one: its buffer may become the canvas.
        var isAlone: Bool { job.steps.count == 1 }
    }

    /// The jobs waiting for a thread, and the pool's threads taking them: at
    /// most `most` at once, fewer than the cores (`DecodeAheadPolicy.coresKept`).
    /// `Sendable`: its state is behind a lock.
    final class Lanes: Sendable {
        private let state = Locked<(waiting: [Job], running: Int)>(([], 0))
        private let most: Int
        private let run: @Sendable (Int64, @escaping @Sendable () -> Void) -> Void

        init(most: Int, run: @escaping @Sendable (Int64, @escaping @Sendable () -> Void) -> Void) {
            self.most = max(most, 1)
            self.run = run
        }

        /// Queues `job`, starting a thread on the queue if fewer than `most`
        /// are; the thread stays `warm` nanoseconds for the next (`WorkerPool.run`).
        func add(_ job: Job, warm: Int64) {
            let start = state.withLock { state in
                state.waiting.append(job)
                guard state.running < most else { return false }
                state.running += 1
                return true
            }
            // Weakly: the queue, not this closure, keeps the jobs (a dropped
            // prefetcher's leave it).
            if start {
                run(warm) { [weak self] in
                    while let job = self?.next(leaving: true) { job.perform() }
                }
            }
        }

        /// The first waiting job, taken off the queue (by the compositor's
        /// thread, or by a queue's thread `leaving` it when none waits).
        func next(leaving: Bool = false) -> Job? {
            state.withLock { state in
                if !state.waiting.isEmpty { return state.waiting.removeFirst() }
                if leaving { state.running -= 1 }
                return nil
            }
        }

        /// Takes `job` off the queue; false when a thread has it already.
        func remove(_ job: Job) -> Bool {
            state.withLock { state in
                guard let i = state.waiting.firstIndex(where: { $0 === job }) else { return false }
                state.waiting.remove(at: i)
                return true
            }
        }
    }
}
