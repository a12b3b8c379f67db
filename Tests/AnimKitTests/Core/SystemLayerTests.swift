import AnimKit
import Foundation
import Synchronization
import Testing

/// The shared system helpers: `FileDescriptorIO.writeAll` and `WorkerPool`.
struct SystemLayerTests {
    /// Every byte reaches a pipe larger than its buffer, in order; a pipe
    /// without a reader gives EPIPE, not a crash or a hang.
    @Test func writeAllWritesEverythingAndReportsEPIPE() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let received = Mutex<[UInt8]>([])
        let readFD = fds[0]
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                received.withLock { $0 += buffer[0..<n] }
            }
            done.signal()
        }
        #expect(FileDescriptorIO.writeAll(fds[1], bytes) == 0)
        close(fds[1])
        done.wait()
        close(fds[0])
        #expect(received.withLock { $0 } == bytes)

        #expect(pipe(&fds) == 0)
        close(fds[0])
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        #expect(FileDescriptorIO.writeAll(fds[1], [1, 2, 3]) == EPIPE)
        close(fds[1])
    }

    /// With a position, the bytes land there (pwrite), over what was written.
    @Test func writeAllAtAPosition() throws {
        let path = NSTemporaryDirectory() + "writeAll-\(getpid()).bin"
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        defer {
            close(fd)
            unlink(path)
        }
        #expect(FileDescriptorIO.writeAll(fd, [1, 2, 3, 4, 5, 6]) == 0)
        #expect(FileDescriptorIO.writeAll(fd, [9, 9], at: 2) == 0)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == [1, 2, 9, 9, 5, 6])
    }

    /// Results come back for every job, also when a job waits for others
    /// (the waiter runs a job no thread has started: no deadlock).
    @Test func poolResultsAndNestedWaits() {
        let outer = (0..<4 * WorkerPool.cores).map { i in
            WorkerPool.shared.submit {
                let inner = (0..<4).map { k in WorkerPool.shared.submit { i * 10 + k } }
                return inner.map { $0.get() }.reduce(0, +)
            }
        }
        #expect(outer.map { $0.get() } == (0..<4 * WorkerPool.cores).map { $0 * 40 + 6 })
    }

    /// A result taken on the waiting thread before any worker reached its
    /// job is freed once its caller lets go, not kept by the queue until a
    /// worker comes (a batch of files kept every frame alive so, 24 GB).
    @Test func aTakenResultIsNotKeptByTheQueue() {
        final class Payload: Sendable {}
        let hold = DispatchSemaphore(value: 0)
        let busy = (0..<WorkerPool.cores).map { _ in WorkerPool.shared.submit { hold.wait() } }
        weak var freed: Payload?
        do {
            let pending = WorkerPool.shared.submit { Payload() }  // queued behind the busy workers
            let payload = pending.get()  // run here
            freed = payload
            #expect(freed != nil)
        }
        #expect(freed == nil)  // before any worker has reached the queued job
        for _ in busy { hold.signal() }
        for b in busy { b.get() }
    }
}
