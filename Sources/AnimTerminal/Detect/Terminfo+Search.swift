#if canImport(Glibc)
    import Glibc
#endif

/// Finding the compiled entry for a terminal name, where ncurses looks.
extension Terminfo {
    /// The directories searched, in ncurses' order: `$TERMINFO`,
    /// `~/.terminfo`, `$TERMINFO_DIRS` (an empty element: the system's),
    /// then the system's.
    public static func searchDirectories(environment env: [String: String]) -> [String] {
        let system = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
        var dirs: [String] = []
        if let t = env["TERMINFO"], !t.isEmpty { dirs.append(t) }
        if let home = env["HOME"], !home.isEmpty { dirs.append(home + "/.terminfo") }
        if let list = env["TERMINFO_DIRS"] {
            for part in list.split(separator: ":", omittingEmptySubsequences: false) {
                if part.isEmpty { dirs += system } else { dirs.append(String(part)) }
            }
        }
        dirs += system
        var seen = Set<String>()
        return dirs.filter { seen.insert($0).inserted }
    }

    /// The entry for `term` from the first directory with a file for it
    /// (`x/xterm-kitty` or `78/xterm-kitty`) that parses; a name with `/` or
    /// a leading `.` is refused (it would reach outside the database).
    public static func load(term: String, environment env: [String: String]) -> Terminfo? {
        guard let first = term.utf8.first, first != UInt8(ascii: "."), term.utf8.count <= 255,
            !term.utf8.contains(UInt8(ascii: "/")), !term.utf8.contains(0)
        else { return nil }
        let hex = String(first, radix: 16)
        let letter = String(decoding: [first], as: UTF8.self)
        for dir in searchDirectories(environment: env) {
            for sub in [letter, hex] {
                if let bytes = readSmallFile(dir + "/" + sub + "/" + term), let entry = parse(bytes) { return entry }
            }
        }
        return nil
    }

    /// A regular file's bytes, if it has at most `maxFileBytes`. Opened
    /// without blocking (a FIFO planted in the path must not hang the probe).
    static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= maxFileBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        guard got <= maxFileBytes else { return nil }
        return Array(bytes[..<got])
    }
}
