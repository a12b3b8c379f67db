import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The library's one pool of threads for work that must run on every core
/// at once: `anim extract`'s frame encoding, APNG's deflate, the encoder's
/// frame reading ahead.
///
/// Plain pthreads taking jobs from a queue: Dispatch's pool on Linux counts
/// a thread blocked in a semaphore (decode-ahead waits so) as busy and then
/// runs a concurrent queue's items one at a time. A result waited for
/// (`Pending.get`) runs on the waiting thread if no worker has started it,
/// so a job that waits for another never deadlocks the pool.
package final class WorkerPool: Sendable {
    /// One thread a core, made on first use, for the life of the process.
    package static let shared = WorkerPool(count: cores)

    /// The processors online (`sysconf`), at least 1.
    package static var cores: Int { System.activeProcessorCount }

    private let jobs = Locked<[(job: @Sendable () -> Void, warm: Int64)]>([])
    private let available = DispatchSemaphore(value: 0)
    /// Jobs queued and not yet taken, read while a thread stays warm.
    private let queued = Atomic<Int>(0)
    private let threads = Atomic<Int>(0)

    /// `count` threads (at least 1); with none made, jobs run on the caller's.
    private init(count: Int) {
        for _ in 0..<max(count, 1) {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let result = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<WorkerPool>.fromOpaque(raw!).takeRetainedValue().work()
                    return nil
                }, context)
            if result == 0 {
                pthread_detach(thread)
                threads.add(1, ordering: .relaxed)
            } else {
                Unmanaged<WorkerPool>.fromOpaque(context).release()
            }
        }
    }

    /// Runs `job` on one of the threads, which then looks for the next
    /// job for `warm` nanoseconds before it sleeps: a thread that slept can
    /// take milliseconds to wake on a virtual machine, and decode-ahead hands
    /// over its next step about when the last is done (`Spin`).
    package func run(warm: Int64 = 0, _ job: @escaping @Sendable () -> Void) {
        guard threads.load(ordering: .relaxed) > 0 else { return job() }
        jobs.withLock { $0.append((job, warm)) }
        queued.add(1, ordering: .releasing)
        available.signal()
    }

    /// Starts `work` on one of the threads; its result comes from `get()`.
    package func submit<T: Sendable>(_ work: @escaping @Sendable () -> T) -> Pending<T> {
        let pending = Pending(work)
        // Weakly: a result its caller took (or dropped) before a worker reached
        // it must not stay in the queue, holding its value until the queue
        // drains.
        run { [weak pending] in pending?.start() }
        return pending
    }

    private func work() {
        var warm: Int64 = 0
        while true {
            _ = Spin.until(warm) { queued.load(ordering: .acquiring) > 0 }
            available.wait()
            guard let next = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            queued.subtract(1, ordering: .relaxed)
            next.job()
            warm = next.warm
        }
    }
}
