import Dispatch

/// A result being computed by `WorkerPool.submit`.
package final class Pending<T: Sendable>: Sendable {
    private enum State {
        case queued(@Sendable () -> T)
        case running
        case finished(T)
    }
    private let state: Locked<State>
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () -> T) { state = Locked(.queued(work)) }

    /// Computes the result here unless a thread has started it already.
    func start() {
        let work = state.withLock { s -> (@Sendable () -> T)? in
            guard case .queued(let work) = s else { return nil }
            s = .running
            return work
        }
        guard let work else { return }
        let value = work()
        state.withLock { $0 = .finished(value) }
        done.signal()
    }

    /// The result: computed on this thread if no worker has started it,
    /// else waited for.
    package func get() -> T {
        start()
        done.wait()
        done.signal()  // for the next `get`
        return state.withLock {
            guard case .finished(let value) = $0 else { preconditionFailure("Pending: no result after done") }
            return value
        }
    }
}
