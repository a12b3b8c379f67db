import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension StepPrefetcher {
    /// A decode of one or more consecutive steps, handed to another thread
    /// at once: small steps go in batches, so that each hand-over carries
    /// enough work to pay for it (`StepPrefetcher.schedule`).
    ///
    /// The worker decodes a batch from its last step back, the compositor's
    /// thread takes back the steps it reaches first, from the front, and
    /// decodes them itself: they meet in the middle, each step claimed by
    /// one of them, neither waiting while the other wakes.
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
        /// Per step, true when its region holds the patch twice: as decoded,
        /// then converted to sRGB (a replacing step of a colour-managed
        /// file, whose converted pixels are the converted canvas's).
        let converted: [Bool]
        /// For a `SplitStepDecoder`: what `prepare` returned, per step.
        var prepared: [Int]
        /// Per step, why its decode failed; the worker stops there.
        var errors: [AnimError?]
        /// The worker's wall time and CPU time for its steps, in
        /// nanoseconds (`Starvation`).
        var times: (wall: Int64, cpu: Int64) = (0, 0)
        /// Signalled once the worker has stopped; `finished` is set just
        /// after, for a waiter that spins.
        let done = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        /// Set by the compositor's thread once it has waited for `done`.
        var waited = false
        /// Per step, who decodes it: nobody yet, the worker, or not the
        /// worker (`dropped`: the compositor's thread, or nobody when the
        /// job is cancelled).
        private let owners: Locked<[Owner]>
        enum Owner { case nobody, worker, dropped }
        /// Decodes one step into its region.
        private let decode: (Job, Int) throws -> Void

        init(
            steps: Range<Int>, buffer: UnsafeMutableRawBufferPointer, offsets: [Int], converted: [Bool],
            decode: @escaping (Job, Int) throws -> Void
        ) {
            (self.steps, self.buffer, self.offsets, self.converted, self.decode) = (steps, buffer, offsets, converted, decode)
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
                guard claim(s) else { break }  // taken back: this one and those before are not ours
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

        /// Makes the worker the owner of step `s` if it has none; false when it has.
        private func claim(_ s: Int) -> Bool {
            owners.withLock {
                guard $0[s - steps.lowerBound] == .nobody else { return false }
                $0[s - steps.lowerBound] = .worker
                return true
            }
        }

        /// Takes step `s` back for the compositor's thread unless the
        /// worker has claimed it; true when it has.
        func takeBack(_ s: Int) -> Bool {
            owners.withLock {
                if $0[s - steps.lowerBound] == .nobody { $0[s - steps.lowerBound] = .dropped }
                return $0[s - steps.lowerBound] == .worker
            }
        }

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
        var converted: Bool { job.converted[i] }
        var error: AnimError? { job.errors[i] }
        /// Whether the step is its job's only one: its buffer may become the canvas.
        var isAlone: Bool { job.steps.count == 1 }
    }
}
