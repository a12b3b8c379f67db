import AnimKit

/// Time and memory as the commands report them.
enum Measure {
    private static let origin = SuspendingClock.now

    /// Monotonic milliseconds from an arbitrary origin.
    static func milliseconds() -> Double { origin.duration(to: .now) / .milliseconds(1) }

    /// Seconds since `start` (a `milliseconds()`), to the millisecond.
    static func seconds(since start: Double) -> JSONValue { .number((milliseconds() - start).rounded() / 1000) }

    /// A `--stats` line on stderr: `fields`, then the seconds since `start`
    /// and the peak memory.
    static func report(_ fields: [(String, JSONValue)], since start: Double) {
        Output.err(
            JSONValue.object(fields + [("seconds", seconds(since: start)), ("peakRSSBytes", .int(peakRSS()))]).text + "\n")
    }

    /// This program's peak resident memory: VmHWM, the high-water mark of
    /// its own address space. (getrusage's ru_maxrss would do, but Linux
    /// carries it over from the parent across fork/exec: a process started
    /// by a large parent reports at least the parent's size.)
    static func peakRSS() -> Int {
        let fd = open("/proc/self/status", O_RDONLY)
        if fd >= 0 {
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &buffer, buffer.count)
            for line in String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("VmHWM:") {
                if let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return kib * 1024 }
            }
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
