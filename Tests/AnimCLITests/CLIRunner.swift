import AnimTestSupport
import Foundation

/// Runs the built `anim` binary and captures what it prints.
enum CLI {
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

    /// `anim ARGS`, with `stdin` written to it and `environment` added to this process's.
    static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let r = try Command.run(
            binary, args, environment: environment.isEmpty ? nil : Command.environment(adding: environment), input: stdin)
        return Result(status: r.status, stdout: r.text, stderr: r.errorText, stdoutData: r.output)
    }

    /// Runs a tool of the repository (`Tools/…`) from the repository's
    /// root; stdout and stderr together.
    static func tool(_ args: [String]) throws -> (status: Int32, output: String) {
        let r = try Command.run("/usr/bin/env", args, directory: Repository.root, errorsToOutput: true)
        return (r.status, r.text)
    }
}
