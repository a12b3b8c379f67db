extension StepPrefetcher {
    /// The jobs waiting for a thread, and the pool's threads taking them:
    /// at most `most` at once, fewer than the cores
    /// (`DecodeAheadPolicy.coresKept`), so that the compositor's thread
    /// keeps a core to decode on too (the steps it reaches first, and a
    /// waiting job while it waits: `take`).
    ///
    /// `Sendable`: its state is behind a lock.
    final class Lanes: Sendable {
        private let state = Locked<(waiting: [Job], running: Int)>(([], 0))
        let most: Int
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
            // Weakly: the queue, not this closure, keeps the jobs; a
            // dropped prefetcher's jobs leave it (`remove`).
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
