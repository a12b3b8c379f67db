import Foundation

/// Runs the built `anim` binary and captures what it prints.
enum CLI {
    static var repo: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func fixture(_ relative: String) -> String {
        repo.appendingPathComponent("Tests/AnimKitTests/Fixtures/" + relative).path
    }

    /// The `anim` executable next to the test bundle.
    static var binary: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("anim").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("anim")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        p.standardOutput = out
        p.standardError = err
        if stdin != nil { p.standardInput = input }
        try p.run()
        if let stdin {
            // Write from another thread so a full output pipe cannot block us.
            let writer = input.fileHandleForWriting
            DispatchQueue.global().async {
                writer.write(stdin)
                try? writer.close()
            }
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self), stdoutData: o)
    }

    /// What `executable` writes to stdout (stderr dropped); `environment`
    /// replaces the process's when given.
    static func capture(_ executable: String, _ args: [String], environment: [String: String]? = nil) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        if let environment { p.environment = environment }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data
    }

    /// Runs a tool of the repository (`Tools/…`) from the repository's
    /// root; stdout and stderr together.
    static func tool(_ args: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.currentDirectoryURL = repo
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, output)
    }

    static func tempDir() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("anim-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
