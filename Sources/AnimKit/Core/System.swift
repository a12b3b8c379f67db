#if canImport(Glibc)
    import Glibc
#endif

/// Facts about the machine, without Foundation.
enum System {
    /// Read once: glibc's `sysconf` reads /sys for it each time.
    static let activeProcessorCount = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)

    static var physicalMemory: Int {
        Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// MemAvailable from /proc/meminfo, in bytes.
    static var availableMemory: Int? {
        guard let bytes = try? FileBytes.read(path: "/proc/meminfo") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
