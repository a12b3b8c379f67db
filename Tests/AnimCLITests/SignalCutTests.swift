import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A signal that arrives while a large frame is going out ends the player
/// at a sequence boundary: what precedes the restore is whole sequences and
/// whole characters. The terminal here reads slowly, so the frame takes a
/// while; and one that stops reading altogether still lets the player exit.
@Suite(.serialized) struct SignalCutTests {
    /// Runs `body` with `anim play` of the clip in a pty whose master it
    /// reads by hand; the player is killed after, if it still runs.
    func withPlayer(_ body: (_ player: Process, _ master: Int32, _ slave: FileHandle) throws -> Void) throws {
        let (master, name) = try PTY.open(columns: 200, rows: 60)
        let slave = try FileHandle(forUpdating: URL(fileURLWithPath: name))
        var raw = termios()
        tcgetattr(slave.fileDescriptor, &raw)
        raw.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(slave.fileDescriptor, TCSANOW, &raw)
        let p = try Process.launch(
            CLI.binary, ["play", "--loops", "0"] + Self.clipArguments, environment: ["COLORTERM": "truecolor"], input: slave,
            output: slave, errors: slave)
        defer {
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            close(master)
            try? slave.close()
        }
        try body(p, master, slave)
    }

    /// Reads what is there (up to `limit` bytes), waiting at most `ms`.
    func read(_ fd: Int32, limit: Int, ms: Int32) -> [UInt8] {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, ms) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: limit)
        let n = Glibc.read(fd, &buffer, limit)
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// A 64×48 clip enlarged to 200×60 cells: the first frame is several pieces.
    @Test func aSignalMidFrameCutsAtASequenceBoundary() throws {
        try withPlayer { p, master, _ in try signalMidFrame(p, master) }
    }

    func signalMidFrame(_ p: Process, _ master: Int32) throws {
        // Read fast until the first frame is whole, then slowly.
        let end = Date().addingTimeInterval(20)
        var out = firstFrame(master, until: end)
        var signalled = false
        while p.isRunning && Date() < end {
            let chunk = read(master, limit: 256, ms: 20)
            out += chunk
            // Signal while a frame is open on screen.
            if !signalled, let h = out.lastIndex(of: Array("\u{1B}[?2026h".utf8)),
                out.lastIndex(of: Array("\u{1B}[?2026l".utf8)).map({ $0 < h }) ?? true, out.count - h > 300
            {
                kill(p.processIdentifier, SIGINT)
                signalled = true
            }
            usleep(2_000)
        }
        while case let more = read(master, limit: 65536, ms: 100), !more.isEmpty { out += more }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        #expect(signalled, "never caught a frame in progress")
        #expect(p.terminationStatus == 130)
        let restore = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
        let at = try #require(out.lastIndex(of: restore), "no restore sequence")
        let text = String(decoding: out, as: UTF8.self)
        #expect(
            text.components(separatedBy: "\u{1B}[?2026h").count == text.components(separatedBy: "\u{1B}[?2026l").count,
            "every update opened is closed once, the cut one by the restore")
        let before = Array(out[..<at])
        #expect(String(validating: before, as: UTF8.self) != nil, "a character was cut")
        // Every escape sequence before the restore is complete: each CSI
        // reaches its final byte before the next ESC (the restore's own
        // ?2026l included, so a cut inside a CSI shows).
        var i = 0
        var broken = 0
        while i < before.count {
            if before[i] == 0x1B, i + 1 < before.count, before[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < before.count, before[j] != 0x1B, !(0x40...0x7E).contains(before[j]) { j += 1 }
                if j >= before.count || before[j] == 0x1B { broken += 1 }
                i = j
            } else {
                i += 1
            }
        }
        #expect(broken == 0, "\(broken) sequences cut before the restore")
    }

    @Test func aTerminalThatStopsReadingDoesNotHoldThePlayer() throws {
        try withPlayer { p, master, slave in stopReading(p, master, slave) }
    }

    func stopReading(_ p: Process, _ master: Int32, _ slave: FileHandle) {
        #expect(!firstFrame(master, until: Date().addingTimeInterval(20)).isEmpty)
        // The terminal stops taking output (TCOOFF, as ^S does): every
        // write of the player blocks, the restore's too. Not reading alone
        // is not enough: the kernel moves up to 4 KiB on to the master's
        // read buffer without waking the blocked writer, so a signal could
        // find room for the rest of the piece and the restore (seen in CI:
        // an exit after 20 ms). Slow builds (AddressSanitizer) take a while
        // to get there: wait until the kernel shows a thread blocked in
        // write(2).
        #expect(tcflow(slave.fileDescriptor, TCOOFF) == 0)
        #expect(blockedInWrite(p.processIdentifier, within: 30), "the player never blocked in write")
        let sent = Date()
        kill(p.processIdentifier, SIGTERM)
        while p.isRunning && Date().timeIntervalSince(sent) < 5 { usleep(20_000) }
        #expect(!p.isRunning, "still running 5 s after SIGTERM with a terminal that does not read")
        let waited = Date().timeIntervalSince(sent)
        #expect(waited < 2.5, "took \(waited) s")
        #expect(waited >= 0.9, "exited at once (\(waited) s): the write was not blocked, the alarm path did not run")
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        #expect(p.terminationStatus == 143)
    }

    /// Whether a thread of `pid` is (twice in a row, 100 ms apart) inside
    /// write(2) or writev(2), as /proc/PID/task/*/syscall shows.
    func blockedInWrite(_ pid: Int32, within seconds: Double) -> Bool {
        #if arch(x86_64)
            let writes: Set<String> = ["1", "20"]
        #else
            let writes: Set<String> = ["64", "66"]
        #endif
        func inWrite() -> Bool {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.contains { task in
                let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)) ?? ""
                return text.split(separator: " ").first.map { writes.contains(String($0)) } ?? false
            }
        }
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if inWrite() {
                usleep(100_000)
                if inWrite() { return true }
            }
            usleep(50_000)
        }
        return false
    }

    static let clipArguments = [
        Fixtures.path("extra/long.gif"),
        "--tolerance", "0", "--upscale",
    ]

    /// What the player wrote up to the end of its first frame.
    func firstFrame(_ master: Int32, until end: Date) -> [UInt8] {
        var out: [UInt8] = []
        while Date() < end, !String(decoding: out, as: UTF8.self).contains("\u{1B}[?2026l") {
            out += read(master, limit: 65536, ms: 100)
        }
        return out
    }
}
