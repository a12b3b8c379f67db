import AnimKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes a pseudo-terminal's master gives, read by a thread of their
/// own until `stop` or `finish`. The thread holds only this reader, never
/// the terminal.
public final class PseudoTerminalReader: Sendable {
    private enum Ending { case reading, now, whenQuiet }
    private struct State {
        var bytes: [UInt8] = []
        var ending = Ending.reading
        var finished = false
    }
    private let state = Locked(State())

    public init() {}

    /// Starts the thread reading `master`.
    public func start(_ master: Int32) { Thread { [self] in run(master) }.start() }

    private func run(_ master: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let ending = state.withLock { $0.ending }
            if ending == .now { break }
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, ending == .whenQuiet ? 300 : 50) > 0
            let n = ready ? read(master, &buffer, buffer.count) : 0
            if n > 0 {
                state.withLock { $0.bytes += buffer[0..<n] }
                continue
            }
            if ending == .whenQuiet { break }
            if n < 0 && errno != EINTR && errno != EAGAIN { usleep(20_000) }
        }
        state.withLock { $0.finished = true }
    }

    /// Everything read so far.
    public var bytes: [UInt8] { state.withLock { $0.bytes } }
    /// True once the thread has returned.
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Stops the thread at once and waits for it (at most a poll's 50 ms and a read).
    public func stop() { end(.now) }

    /// Reads what is still to come until the master has been quiet for
    /// 300 ms, then stops; returns everything read.
    @discardableResult
    public func finish() -> [UInt8] {
        end(.whenQuiet)
        return bytes
    }

    private func end(_ ending: Ending) {
        state.withLock { $0.ending = ending }
        while !isFinished { usleep(1_000) }
    }
}
