import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Threads of their own for work that must run on every core at once.
///
/// Dispatch's pool on Linux counts a thread blocked in a semaphore (decode-
/// ahead waits so) as busy and then runs a concurrent queue's items one at
/// a time: `anim extract` encoded on one core of two (seen: 4.2 s real,
/// 4.6 s CPU). These are plain pthreads taking jobs from a queue.
///
/// `@unchecked Sendable`: `jobs` and `stopping` are touched only with
/// `lock` held; `available` counts the jobs.
final class WorkerThreads: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private let available = DispatchSemaphore(value: 0)
    private var jobs: [() -> Void] = []
    private var stopping = false
    private var threads: [pthread_t] = []

    /// `count` threads (at least 1).
    init(count: Int) {
        for _ in 0..<max(count, 1) {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            if pthread_create(
                &thread, nil,
                { raw in
                    let pool = Unmanaged<WorkerThreads>.fromOpaque(raw!).takeRetainedValue()
                    pool.work()
                    return nil
                }, context) == 0
            {
                threads.append(thread)
            } else {
                Unmanaged<WorkerThreads>.fromOpaque(context).release()
            }
        }
    }

    /// One thread a core (`sysconf`).
    static var cores: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    /// Runs `job` on one of the threads (on the caller's if none could be made).
    func run(_ job: @escaping () -> Void) {
        guard !threads.isEmpty else { return job() }
        lock.wait()
        jobs.append(job)
        lock.signal()
        available.signal()
    }

    /// Lets the threads finish the jobs queued, then end; waits for them.
    func stop() {
        lock.wait()
        stopping = true
        lock.signal()
        for _ in threads { available.signal() }
        for t in threads { pthread_join(t, nil) }
        threads = []
    }

    private func work() {
        while true {
            available.wait()
            lock.wait()
            if jobs.isEmpty {
                let done = stopping
                lock.signal()
                if done { return }
                continue
            }
            let job = jobs.removeFirst()
            lock.signal()
            job()
        }
    }
}
