#if canImport(Glibc)
    import Glibc
#endif

/// A mutex with a condition variable, on pthreads. AnimKit avoids
/// Foundation: it would add about 10 MiB to every process's memory.
///
/// `@unchecked Sendable`: it is the synchronisation: the pthread mutex and
/// condition are made for use from any thread, and their pointers never change.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for `broadcast`, with the lock held on entry and on return.
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits for `broadcast` at most `milliseconds`, lock held as for `wait`.
    func wait(milliseconds: Int) {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let ns = deadline.tv_nsec + milliseconds % 1000 * 1_000_000
        deadline.tv_sec += milliseconds / 1000 + ns / 1_000_000_000
        deadline.tv_nsec = ns % 1_000_000_000
        pthread_cond_timedwait(condition, mutex, &deadline)
    }
}

/// Facts about the machine, without Foundation.
enum System {
    static var activeProcessorCount: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    static var physicalMemory: Int {
        Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// MemAvailable from /proc/meminfo, in bytes.
    static var availableMemory: Int? {
        guard let bytes = try? FileBytes.read(path: "/proc/meminfo") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
