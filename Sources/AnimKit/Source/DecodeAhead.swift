import Dispatch

/// Decoding ahead for the reads of an `ImageSource` through a store (a
/// `FrameCache`): whole frames are composited ahead of the playhead on one
/// serial queue, into the store, until the first it would not keep. Those reads
/// decode no steps ahead (`StepPrefetcher` does, for direct reads), so one
/// decode runs at a time for the source.
///
/// `Sendable`: its state is behind a `Locked`.
final class DecodeAhead: Sendable {
    private let queue = DispatchQueue(label: "anim.decode-ahead", qos: .userInitiated)
    private let state = Locked(State())

    private struct State {
        /// Bumped by every read for a store: frames ahead started before it stop.
        var generation = 0
        /// The frame being composited ahead.
        var inFlight: Int?
        /// Reads waiting for `inFlight` to finish.
        var waiters = Waiters()
    }

    /// A read of frame `index` for a store begins: the frames ahead stop at
    /// their next frame, and a composite of `index` under way is waited for.
    func claim(_ index: Int) {
        state.withLock { $0.generation += 1 }
        while let parked = state.withLock({ $0.inFlight == index ? $0.waiters.park() : nil }) {
            parked.wait()
        }
    }

    /// Stops the frames ahead and waits until the queue is idle.
    func stop() {
        state.withLock { $0.generation += 1 }
        drain()
    }

    /// Waits until the queue is idle (for tests and benchmarks).
    func drain() { queue.sync {} }

    /// Composites, on the queue, the frames after `index` in `direction` (past
    /// the end only if `wraps`), each costing `cost`, into `store` while it
    /// wants them, until a newer read.
    func frames(
        after index: Int, direction: PlaybackDirection, wraps: Bool, cost: Int, of source: ImageSource,
        into store: some FrameStore
    ) {
        let ticket = state.withLock { $0.generation }
        queue.async { [weak source, weak store] in
            guard let source, let store else { return }
            var next = index
            let n = source.frameCount
            let step = direction == .forward ? 1 : n - 1
            for _ in 1..<max(n, 1) {
                let following = (next + step) % n
                if !wraps && (direction == .forward ? following < next : following > next) { return }
                next = following
                guard let wanted = store.wantsAhead(next, cost: cost) else { continue }
                guard wanted else { return }
                let current = self.state.withLock { s in  // unless a newer read redirects decoding ahead
                    if s.generation == ticket { s.inFlight = next }
                    return s.generation == ticket
                }
                guard current else { return }
                let image = try? source.decode(next, into: store, cost: cost)
                self.state.withLock {
                    $0.inFlight = nil
                    $0.waiters.wakeAll()  // a read waiting for it
                }
                if image == nil { return }
            }
        }
    }
}
