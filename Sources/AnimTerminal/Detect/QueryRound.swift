import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// One round of queries: written at once, then replies read until DA1's
/// (the sentinel: terminals answer in order) or the time is up. Memory is
/// bounded: reads of 4 KiB, the parser's bounds, `TerminalProbe.maxReplies`
/// and `TerminalProbe.maxPendingInput`.
struct QueryRound: Equatable {
    var replies: [TerminalReply] = []
    /// Input that was not a reply, in order (keys typed meanwhile).
    var pending: [UInt8] = []
    var sawSentinel: Bool { end == .sentinel }
    /// From before the write to the sentinel or the timeout.
    var elapsed: Int64 = 0
    var end: End = .timeout

    enum End: Equatable {
        /// DA1's reply came.
        case sentinel
        case timeout
        /// The queries could not be written in time (`errno`, 0 for time).
        case writeFailed(Int32)
        /// Reading failed or found the end of input (`errno`, 0 for EOF).
        case inputEnded(Int32)
    }

    /// Reads after the sentinel that take what is already there.
    static let drainReads = 4

    /// `awaitKitty`: read on past DA1, until the deadline at most, for the
    /// reply to kitty's query: inside tmux DA1 is tmux's, answered at once,
    /// and a later reply from outside landed on the shell's prompt.
    static func run(
        _ queries: [UInt8], input: Int32, output: Int32, timeoutMs: Int, clock: any Clock<Duration>,
        awaitKitty: Bool = false, plainCursorPosition: Bool = false
    ) -> QueryRound {
        let clock = PlaybackClock(clock)
        return ProbeTTY.withProbeMode(input) { _ in
            var round = QueryRound()
            let start = clock.nanoseconds()
            let deadline = start + Int64(timeoutMs) * 1_000_000
            var parser = TerminalReplyParser()
            parser.plainCursorPosition = plainCursorPosition
            if write(queries, to: output, deadline: deadline, clock: clock) {
                round.read(input, &parser, deadline: deadline, clock: clock, awaitKitty: awaitKitty)
            } else {
                round.end = .writeFailed(errno)
            }
            round.elapsed = clock.nanoseconds() - start
            // What the parser holds back is a key only once DA1 came; a
            // round cut by its deadline may have cut a reply after its ESC,
            // which the player would take for the Esc key: dropped.
            let held = parser.flush()
            if round.sawSentinel { round.keep(held) }
            return round
        }
    }

    /// Writes all of `bytes`, waiting for room no later than `deadline`.
    static func write(_ bytes: [UInt8], to fd: Int32, deadline: Int64, clock: PlaybackClock) -> Bool {
        var off = 0
        while off < bytes.count {
            let left = deadline - clock.nanoseconds()
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let r = poll(&p, 1, Int32((left + 999_999) / 1_000_000))
            if r < 0 && errno == EINTR { continue }
            guard r > 0, p.revents & Int16(POLLOUT) != 0 else { return false }
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { return false }
            off += n
        }
        return true
    }

    mutating func read(
        _ fd: Int32, _ parser: inout TerminalReplyParser, deadline: Int64, clock: PlaybackClock, awaitKitty: Bool = false
    ) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var drains = 0
        while drains < Self.drainReads {
            let left = deadline - clock.nanoseconds()
            let done = finished(awaitKitty: awaitKitty)
            let wait: Int32 = done ? 0 : Int32((left + 999_999) / 1_000_000)
            if !done && left <= 0 { return }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, wait)
            if r < 0 && errno == EINTR { continue }
            if r == 0 { return }
            guard r > 0, p.revents & Int16(POLLIN) != 0 else {
                if !sawSentinel { end = .inputEnded(r < 0 ? errno : Int32(p.revents)) }
                return
            }
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else {
                if !sawSentinel { end = .inputEnded(n < 0 ? errno : 0) }
                return
            }
            let (replies, other) = parser.feed(Array(buffer[0..<n]))
            for reply in replies {
                if case .primaryAttributes = reply {
                    if sawSentinel { continue }
                    end = .sentinel
                }
                if self.replies.count < TerminalProbe.maxReplies { self.replies.append(reply) }
            }
            keep(other)
            if finished(awaitKitty: awaitKitty) { drains += 1 }
        }
    }

    /// DA1 came, and kitty's reply too when it is awaited.
    func finished(awaitKitty: Bool) -> Bool {
        sawSentinel && (!awaitKitty || replies.contains { $0.isKittyGraphics })
    }

    mutating func keep(_ other: [UInt8]) {
        let room = TerminalProbe.maxPendingInput - pending.count
        if room > 0 { pending += other.prefix(room) }
    }
}
