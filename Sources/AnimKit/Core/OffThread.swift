import Dispatch

/// Work run on a Dispatch queue for an `async` caller, so that the task's
/// thread is not held while a C library decodes, and that honours
/// cancellation: a cancelled task gets `CancellationError` at once, before
/// or during the work (which then finishes on its own, its result dropped).
package enum OffThread {
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let waiting = Locked<CheckedContinuation<T, Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.withLock { $0 = continuation }
                // Cancelled before the continuation was there to resume.
                if Task.isCancelled { waiting.withLock { $0.take() }?.resume(throwing: CancellationError()) }
                DispatchQueue.global(qos: .userInitiated).async {
                    let result = Result { try work() }
                    waiting.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: {
            waiting.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }
}
