import AnimKit
#if canImport(Glibc)
import Glibc
#endif

// anim: the command-line tool. One file per subcommand; this one dispatches.

let commands: [String: Command.Type] = [
    "info": InfoCommand.self,
    "extract": ExtractCommand.self,
    "bench": BenchCommand.self,
]

let arguments = Array(CommandLine.arguments.dropFirst())
exit(CLI.run(arguments, commands: commands))
