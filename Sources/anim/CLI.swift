import AnimKit

/// A subcommand: parses its own options and runs.
protocol Command {
    static var info: CommandInfo { get }
    static func run(_ parsed: ParsedArguments) throws -> Int32
}

/// A problem with how the tool was called: exit code 2, with the usage.
struct UsageError: Error {
    var message: String
}

enum CLI {
    static let version = "1.0.0"

    static func globalUsage(_ commands: [Command.Type]) -> String {
        var s = "usage: anim COMMAND [OPTIONS] ...\n\nanim reads GIF, APNG and animated WebP.\n\ncommands:\n"
        for info in commands.map({ $0.info }).sorted(by: { $0.name < $1.name }) {
            s += "  " + info.name.padding(8) + info.summary + "\n"
        }
        s += "\nRun 'anim COMMAND --help' for a command's options.\n"
        return s
    }

    static func run(_ args: [String], commands: [Command.Type]) -> Int32 {
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
        guard let command = commands.first(where: { $0.info.name == first }) else {
            Output.err("anim: unknown command '\(first)'\n\n" + globalUsage(commands))
            return 2
        }
        let info = command.info
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            Output.out(info.usage + "\n" + Limits.usage + "\n")
            return 0
        }
        do {
            return try command.run(try info.spec.parse(rest))
        } catch let e as UsageError {
            Output.err("anim \(info.name): \(e.message)\n\n" + info.usage)
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
