/// `anim help [COMMAND]`: the global help or a command's; `anim help
/// --man`: the manual page anim(1), in roff.
enum HelpCommand: Command {
    static let info = CommandInfo(
        name: "help", summary: "show the help of anim or of a command; --man: the manual page",
        synopsis: ["[COMMAND]", "--man"],
        description: """
            Prints the same text as 'anim --help' or 'anim COMMAND --help'. With
            --man, prints the manual page anim(1) in roff, made from the same
            declarations (Tools/install.sh installs it):
              anim help --man | man -l -
            """,
        groups: [OptionGroup(title: "options", options: [.man])], operands: 0...1, operandCompletion: .none,
        reads: false)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args.flag(.man) {
            Output.out(ManPage.render(CLI.commands.map { $0.info }))
            return 0
        }
        guard let name = args.operands.first else {
            Output.out(CLI.globalUsage)
            return 0
        }
        guard let command = CLI.command(named: name) else {
            throw UsageError(message: "no command '\(name)'")
        }
        Output.out(command.info.help)
        return 0
    }
}

/// `anim completions bash|zsh|fish`: the completion script for a shell.
enum CompletionsCommand: Command {
    static let info = CommandInfo(
        name: "completions", summary: "print the completion script for bash, zsh or fish",
        synopsis: ["bash|zsh|fish"],
        description: """
            Prints a script that completes anim's commands, options and option
            values in the shell named (Tools/install.sh installs all three):
              anim completions bash > /etc/bash_completion.d/anim
              anim completions zsh > /usr/local/share/zsh/site-functions/_anim
              anim completions fish > ~/.config/fish/completions/anim.fish
            """,
        groups: [], operands: 1...1, operandCompletion: .none, reads: false)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let infos = CLI.commands.map { $0.info }
        switch args.operands[0] {
        case "bash": Output.out(Completions.bash(infos))
        case "zsh": Output.out(Completions.zsh(infos))
        case "fish": Output.out(Completions.fish(infos))
        case let other: throw UsageError(message: "no completions for '\(other)': bash, zsh or fish")
        }
        return 0
    }
}

extension Option {
    static let man = Option("man", help: "print the manual page anim(1) in roff")
}
