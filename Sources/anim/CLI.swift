import AnimKit

/// A subcommand: declares itself (`info`) and runs on its parsed line.
protocol Command: Sendable {
    static var info: CommandInfo { get }
    static func run(_ parsed: ParsedArguments) throws -> Int32
}

/// A problem with how the tool was called: one line, exit status 2.
struct UsageError: Error {
    var message: String
}

/// A failure the command line words itself (exit status 1): a message,
/// or an error and then, on a line of its own, what it left behind.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) { description = message }
    init(_ error: Error, left: String) { description = left.isEmpty ? "\(error)" : "\(error)\nanim: \(left)" }
}

enum CLI {
    static let version = "2.0.0"

    static var globalUsage: String {
        var s = "usage: anim COMMAND [options] ...\n       anim -h | --help | -V | --version\n\n"
        s += "anim plays, converts and inspects GIF, APNG and animated WebP.\n\ncommands:\n"
        for info in commands.map({ $0.info }) { s += HelpLayout.entry(info.name, info.summary, column: 16) }
        s += "\nRun 'anim COMMAND --help' (or 'anim help COMMAND') for a command's options; 'man anim' for all.\n"
        return s
    }

    /// `anim -V`: this version and the libraries' in use.
    static var versionText: String {
        "anim \(version)\n" + LibraryVersions.all.map { "\($0.library) \($0.version)" }.joined(separator: ", ") + "\n"
    }

    /// Every command, in the order `anim --help` lists them.
    static let commands: [Command.Type] = [
        PlayCommand.self, InfoCommand.self, ConvertCommand.self, EncodeCommand.self, OptimizeCommand.self,
        ExtractCommand.self, BenchCommand.self, HelpCommand.self, CompletionsCommand.self,
    ]

    /// The command called `name`.
    static func command(named name: String) -> Command.Type? { commands.first { $0.info.name == name } }

    static func run(_ args: [String]) -> Int32 {
        guard let first = args.first else {
            Output.err(globalUsage)
            return 2
        }
        switch first {
        case "-h", "--help":
            Output.out(globalUsage)
            return 0
        case "-V", "--version":
            Output.out(versionText)
            return 0
        default: break
        }
        guard let command = command(named: first) else {
            Output.err("anim: unknown command '\(first)' (see 'anim --help')\n")
            return 2
        }
        let info = command.info
        let rest = Array(args.dropFirst())
        let parser = OptionParser(info)
        // -h anywhere among the options (not after --) shows the help.
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains(where: parser.isShortHelp) {
            Output.out(info.help)
            return 0
        }
        do {
            return try command.run(try parser.parse(rest))
        } catch let e as UsageError {
            Output.err("anim \(info.name): \(e.message) (see 'anim \(info.name) --help')\n")
            return 2
        } catch {
            Output.err("anim: \(Limits.describe(error))\n")
            return 1
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
