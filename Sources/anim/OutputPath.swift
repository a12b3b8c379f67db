import AnimKit

/// Paths: checks on an output path before anything is written, and the
/// parts of a path.
enum OutputPath {
    /// OUT must not be a folder, nor the same file as an input.
    static func check(_ out: String, notAnyOf inputs: [String]) throws {
        guard let st = status(out) else { return }  // a new file: not an input
        if st.st_mode & S_IFMT == S_IFDIR {
            throw AnimError(file: out, IOFailure(operation: "write", errno: EISDIR, message: "is a folder"))
        }
        for input in inputs where same(input, out) {
            throw AnimError(file: out, IOFailure(operation: "write", errno: EINVAL, message: "it is also an input (\(input))"))
        }
    }

    /// `stat(2)` of `path`; nil when it has none.
    static func status(_ path: String) -> stat? {
        var st = stat()
        return stat(path, &st) == 0 ? st : nil
    }

    /// The last part of a path.
    static func baseName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    /// `name` in the folder `dir`.
    static func joined(_ dir: String, _ name: String) -> String { (dir.hasSuffix("/") ? dir : dir + "/") + name }

    /// Whether two paths name the same existing file.
    static func same(_ a: String, _ b: String) -> Bool {
        guard let x = status(a), let y = status(b) else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// IN and OUT of a command that writes one file: `IN OUT`, `IN -o OUT`
    /// or (`inPlace`) IN alone. OUT `-` (standard output) must not be a
    /// terminal, and `--skip-existing` (a batch's) is refused.
    static func operands(_ args: ParsedArguments, inPlace: Bool = false) throws -> (input: String, output: String) {
        if args.flag(.skipExisting) { throw UsageError(message: "--skip-existing is for --out-dir") }
        let out: String
        switch (args[.output], args.operands.count) {
        case (let o?, 1): out = o
        case (nil, 2): out = args.operands[1]
        case (nil, 1) where inPlace: out = args.operands[0]
        case (nil, 1): throw UsageError(message: "missing OUT (or -o OUT)")
        case (_?, _): throw UsageError(message: "give OUT or -o OUT, not both")
        default: throw UsageError(message: "one IN and one OUT (several inputs: --out-dir DIR)")
        }
        if out == "-" { try refuseTerminal() }
        return (args.operands[0], out)
    }

    /// `bytes` as OUT: a file written whole or not at all, or standard
    /// output for `-`.
    static func write(_ bytes: [UInt8], to out: String) throws {
        guard out == "-" else { return try AtomicFile.write(bytes, to: out) }
        let e = bytes.withUnsafeBytes { FileDescriptorIO.writeAll(1, $0) }
        if e != 0 { throw AnimError(file: "<stdout>", IOFailure(operation: "write", errno: e)) }
    }

    /// Standard output as OUT: not a terminal, which would show the bytes.
    static func refuseTerminal() throws {
        if isatty(1) == 1 {
            throw UsageError(message: "standard output is a terminal: redirect it (> FILE) or pipe it, or name a file")
        }
    }

    /// Creates `dir` (and its parents) if it is not there.
    static func makeFolder(_ dir: String) throws {
        var path = dir.hasPrefix("/") ? "/" : ""
        for part in dir.split(separator: "/") {
            path += part
            defer { path += "/" }
            if mkdir(path, 0o777) != 0 && errno != EEXIST {
                throw AnimError(file: path, IOFailure(operation: "create the folder", errno: errno))
            }
        }
        guard let st = status(dir), st.st_mode & S_IFMT == S_IFDIR else {
            throw AnimError(file: dir, IOFailure(operation: "use as a folder", errno: ENOTDIR, message: "not a folder"))
        }
    }
}
