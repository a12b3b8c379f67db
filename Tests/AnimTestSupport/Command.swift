import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a program that ran to its end printed.
public struct CommandResult: Sendable {
    public var status: Int32
    /// Standard output (with the errors too, when they were asked for there).
    public var output: Data
    public var errors: Data
    public var text: String { String(decoding: output, as: UTF8.self) }
    public var errorText: String { String(decoding: errors, as: UTF8.self) }
}

/// The one way the tests run a program and read what it prints.
public enum Command {
    /// Runs `executable` to its end. `environment` replaces this process's
    /// (nil: inherited); `input` is written from another thread, so that a
    /// full output pipe cannot block; `errorsToOutput` puts standard error
    /// on standard output.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Data? = nil, errorsToOutput: Bool = false
    ) throws -> CommandResult {
        let out = Pipe()
        let err = errorsToOutput ? out : Pipe()
        let stdin = input.map { _ in Pipe() }
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let environment { p.environment = environment }
        if let directory { p.currentDirectoryURL = directory }
        p.standardOutput = out
        p.standardError = err
        if let stdin { p.standardInput = stdin }
        try p.run()
        if let input, let writer = stdin?.fileHandleForWriting {
            DispatchQueue.global().async {
                writer.write(input)
                try? writer.close()
            }
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = errorsToOutput ? Data() : err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CommandResult(status: p.terminationStatus, output: o, errors: e)
    }

    /// `run` of a program named by its path.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Data? = nil, errorsToOutput: Bool = false
    ) throws -> CommandResult {
        try run(
            URL(fileURLWithPath: path), arguments, environment: environment, directory: directory, input: input,
            errorsToOutput: errorsToOutput)
    }

    /// This process's environment with `changes` made.
    public static func environment(adding changes: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(changes) { $1 }
    }
}

extension Process {
    /// Starts `executable` on the given standard streams (nil: this
    /// process's), with `environment` added to this process's.
    public static func launch(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Any? = nil,
        output: Any? = nil, errors: Any? = nil
    ) throws -> Process {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if !environment.isEmpty { p.environment = Command.environment(adding: environment) }
        if let input { p.standardInput = input }
        if let output { p.standardOutput = output }
        if let errors { p.standardError = errors }
        try p.run()
        return p
    }

    /// Waits up to `seconds` for the process to end, then kills it if it
    /// has not (SIGKILL) and reaps it; whether it ended by itself.
    public func exits(within seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while isRunning && Date() < end { usleep(20_000) }
        let ended = !isRunning
        if !ended { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
        return ended
    }
}

extension Command {
    /// Runs `body` (a program waited for, minutes perhaps) on a Dispatch
    /// thread and suspends until it returns. Swift concurrency has one
    /// thread a core: two tests blocking both for minutes (the client
    /// package's build, the fault sweep) stalled every async test of the
    /// run past its time limit.
    public static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}
