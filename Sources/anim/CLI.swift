import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// A subcommand: parses its own options and runs.
protocol Command {
    static var name: String { get }
    static var summary: String { get }
    /// Usage lines and every option, shown by `anim COMMAND --help`.
    static var usage: String { get }
    static var spec: OptionSpec { get }
    static func run(_ parsed: ParsedArguments) throws -> Int32
}

/// A problem with how the tool was called: exit code 2, with the usage.
struct UsageError: Error {
    var message: String
}

enum CLI {
    static let version = "1.0.0"

    static func globalUsage(_ commands: [String: Command.Type]) -> String {
        var s = "usage: anim COMMAND [OPTIONS] ...\n\nanim reads GIF, APNG and animated WebP.\n\ncommands:\n"
        for name in commands.keys.sorted() {
            s += "  " + name.padding(8) + commands[name]!.summary + "\n"
        }
        s += "\nRun 'anim COMMAND --help' for a command's options.\n"
        return s
    }

    static func run(_ args: [String], commands: [String: Command.Type]) -> Int32 {
        guard let first = args.first else {
            Output.err(globalUsage(commands))
            return 2
        }
        if first == "--help" || first == "-h" || first == "help" {
            Output.out(globalUsage(commands))
            return 0
        }
        if first == "--version" {
            Output.out("anim \(version)\n")
            return 0
        }
        guard let command = commands[first] else {
            Output.err("anim: unknown command '\(first)'\n\n" + globalUsage(commands))
            return 2
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            Output.out(command.usage + "\n" + Limits.usage + "\n")
            return 0
        }
        do {
            let parsed = try command.spec.parse(rest)
            return try command.run(parsed)
        } catch let e as UsageError {
            Output.err("anim \(command.name): \(e.message)\n\n" + command.usage)
            return 2
        } catch let AnimError.limitExceeded(file, limit, value, maximum) {
            Output.err("anim: " + Limits.message(file: file, limit: limit, value: value, maximum: maximum) + "\n")
            return 1
        } catch let e as AnimError {
            Output.err("anim: \(e.description)\n")
            return 1
        } catch {
            Output.err("anim: \(error)\n")
            return 1
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
