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

enum CLI {
    static let version = "2.0.0"

    static func globalUsage(_ commands: [Command.Type]) -> String {
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

    static func run(_ args: [String], commands: [Command.Type] = commands) -> Int32 {
        guard let first = args.first else {
            Output.err(globalUsage(commands))
            return 2
        }
        switch first {
        case "-h", "--help":
            Output.out(globalUsage(commands))
            return 0
        case "-V", "--version":
            Output.out(versionText)
            return 0
        default: break
        }
        guard let command = commands.first(where: { $0.info.name == first }) else {
            Output.err("anim: unknown command '\(first)' (see 'anim --help')\n")
            return 2
        }
        let info = command.info
        let rest = Array(args.dropFirst())
        // -h anywhere among the options (not after --) shows the help.
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains(where: { OptionParser.isShortHelp($0, info) }) {
            Output.out(info.help)
            return 0
        }
        do {
            return try command.run(try OptionParser(info).parse(rest))
        } catch let e as UsageError {
            Output.err("anim \(info.name): \(e.message) (see 'anim \(info.name) --help')\n")
            return 2
        } catch {
            Output.err("anim: \(Limits.describe(error))\n")
            return 1
        }
    }
}

extension OptionParser {
    /// Whether a short-option word asks for the help (`-h`, `-qh`), its
    /// letters before the h being flags.
    static func isShortHelp(_ word: String, _ info: CommandInfo) -> Bool {
        guard word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 1 else { return false }
        let shorts = Dictionary(info.options.compactMap { o in o.short.map { ($0, o) } }, uniquingKeysWith: { a, _ in a })
        for c in word.dropFirst() {
            if c == "h" { return true }
            guard let o = shorts[c], case .flag = o.value else { return false }
        }
        return false
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
