/// The shells' completion scripts, made from the commands' declarations:
/// commands, each command's options, the values of options with a fixed
/// set, files and folders where an option or operand takes one.
enum Completions {
    static func bash(_ commands: [CommandInfo]) -> String {
        var s = """
            # bash completion for anim (made by `anim completions bash`)
            _anim() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) -h --help -V --version" -- "$cur"))
                    return
                fi
                case "$cmd:$prev" in

            """
        for c in commands {
            for o in c.options {
                let names = ([o.flag] + (o.short.map { ["-\($0)"] } ?? [])).map { "\(c.name):\($0)" }.joined(separator: "|")
                switch o.value {
                case .flag: continue
                case .choice(let words, _):
                    s +=
                        "        \(names)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                case .text(_, .file): s += "        \(names)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                case .text(_, .directory): s += "        \(names)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
                default: s += "        \(names)) return ;;\n"
                }
            }
        }
        s += """
                esac
                if [[ "$cur" == -* ]]; then
                    case "$cmd" in

            """
        for c in commands {
            let words = c.options.flatMap { [$0.flag] + ($0.short.map { ["-\($0)"] } ?? []) }
            s += "            \(c.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")) ;;\n"
        }
        s += """
                    esac
                    return
                fi
                case "$cmd" in
                    help) COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;
                    completions) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;

            """
        for c in commands where c.operandCompletion == .directory {
            s += "            \(c.name)) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
        }
        s += """
                    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
                esac
            }
            complete -o filenames -F _anim anim

            """
        return s
    }

    static func zsh(_ commands: [CommandInfo]) -> String {
        var s = """
            #compdef anim
            # zsh completion for anim (made by `anim completions zsh`)
            _anim() {
              local -a commands
              commands=(

            """
        for c in commands { s += "    '\(c.name):\(describe(c.summary))'\n" }
        s += """
              )
              if (( CURRENT == 2 )); then
                _describe -t commands 'anim command' commands
                return
              fi
              local cmd=$words[2]
              shift words
              (( CURRENT-- ))
              case $cmd in

            """
        for c in commands {
            s += "    \(c.name)) _arguments -s -S"
            for o in c.options {
                let text = describe(o.help)
                let action: String
                switch o.value {
                case .flag: action = ""
                case .choice(let words, _): action = ":\(o.name):(\(words.joined(separator: " ")))"
                case .text(let m, .file): action = ":\(describe(m)):_files"
                case .text(let m, .directory): action = ":\(describe(m)):_files -/"
                case .integer(let m, _), .number(let m, _, _), .text(let m, _): action = ":\(describe(m)): "
                }
                let takes = action.isEmpty ? "" : "="
                if let c = o.short {
                    s +=
                        " \\\n        '(-\(c) \(o.flag))'{-\(c)\(takes.isEmpty ? "" : "+"),\(o.flag)\(takes)}'[\(text)]\(action)'"
                } else {
                    s += " \\\n        '\(o.flag)\(takes)[\(text)]\(action)'"
                }
            }
            switch c.name {
            case "help": s += " \\\n        '1:command:(\(commands.map(\.name).joined(separator: " ")))'"
            case "completions": s += " \\\n        '1:shell:(bash zsh fish)'"
            default: s += " \\\n        '*:file:_files\(c.operandCompletion == .directory ? " -/" : "")'"
            }
            s += " ;;\n"
        }
        s += """
              esac
            }
            _anim "$@"

            """
        return s
    }

    static func fish(_ commands: [CommandInfo]) -> String {
        var s = "# fish completion for anim (made by `anim completions fish`)\ncomplete -c anim -f\n"
        for c in commands {
            s += "complete -c anim -n __fish_use_subcommand -a \(c.name) -d '\(describe(c.summary))'\n"
        }
        for c in commands {
            let when = "-n '__fish_seen_subcommand_from \(c.name)'"
            for o in c.options {
                var line = "complete -c anim \(when)"
                if let short = o.short { line += " -s \(short)" }
                line += " -l \(o.name)"
                switch o.value {
                case .flag: break
                case .choice(let words, _): line += " -x -a '\(words.joined(separator: " "))'"
                case .text(_, .file): line += " -r -F"
                case .text(_, .directory): line += " -x -a '(__fish_complete_directories)'"
                default: line += " -x"
                }
                s += line + " -d '\(describe(o.help))'\n"
            }
            switch c.name {
            case "help": s += "complete -c anim \(when) -a '\(commands.map(\.name).joined(separator: " "))'\n"
            case "completions": s += "complete -c anim \(when) -a 'bash zsh fish'\n"
            default:
                s +=
                    c.operandCompletion == .directory
                    ? "complete -c anim \(when) -a '(__fish_complete_directories)'\n" : "complete -c anim \(when) -F\n"
            }
        }
        return s
    }

    /// A help text's first clause, safe in single quotes and in zsh's
    /// `[...]` and `:` fields.
    static func describe(_ text: String) -> String {
        let clause = text.prefix { $0 != ";" && $0 != "(" && $0 != ":" }
        var first = String(clause.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        if first.count > 70 { first = String(first.prefix(69)) + "…" }
        return String(first.filter { !"[]:'\\`$\"".contains($0) })
    }
}
