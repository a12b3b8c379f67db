import AnimTestSupport
import Foundation
import Testing

/// Issue 26: the help, the man page and the completions are made from the
/// same declarations as the parser, so they agree with it: every option the
/// man page lists under a command is one that command's parser takes, and
/// its help and its completions list the same ones.
struct DeclarationsAgreeTests {
    /// Per command, the options of the man page (`\fB\-\-name\fR \fIVALUE\fR`).
    func manPageOptions() throws -> [String: [(name: String, value: String?)]] {
        let man = try CLI.run(["help", "--man"])
        #expect(man.status == 0)
        var out: [String: [(String, String?)]] = [:]
        var command: String?
        var lines = man.stdout.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            if line.hasPrefix(".SS \"anim ") {
                command = String(line.dropFirst(10).dropLast())
            } else if line == ".TP", let command, let term = lines.first, term.hasPrefix("\\fB") {
                let plain = term.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
                let long = plain.components(separatedBy: "\\fB").last!.components(separatedBy: "\\fR")[0]
                let value = plain.components(separatedBy: "\\fI").dropFirst().first?.components(separatedBy: "\\fR")[0]
                out[command, default: []].append((long, value))
            }
        }
        return out
    }

    /// A value each kind of option takes (by its placeholder in the man page).
    func sample(_ placeholder: String) -> String {
        if placeholder.contains("|") { return String(placeholder.split(separator: "|")[0]) }
        switch placeholder {
        case "WxH", "COLSxROWS": return "2x2"
        case "WxH+X+Y": return "2x2+0+0"
        case "COLSxROWS@X,Y": return "2x2@0,0"
        case "SIZE": return "1M"
        case "LIST", "A-B": return "0"
        case "PATTERN": return "f%d.png"
        case "OUT", "DIR", "FILE": return "/nonexistent-dir/x"
        default: return "2"  // inside every numeric range declared
        }
    }

    @Test func everyOptionOfTheManPageParses() throws {
        let commands = try manPageOptions()
        #expect(
            Set(commands.keys) == ["play", "info", "convert", "encode", "optimize", "extract", "bench", "help", "completions"])
        #expect(commands["convert"]!.contains { $0.name == "--out-dir" })
        var tried = 0
        for (command, options) in commands where command != "help" && command != "completions" {
            for (name, value) in options where name != "--help" && name != "--probe" {
                // A file that does not exist: the command stops after parsing.
                let args = [command, name] + (value.map { [sample($0)] } ?? []) + ["/nonexistent/in.gif"]
                let r = try CLI.run(args, environment: ["COLORTERM": ""])
                #expect(!r.stderr.contains("unknown option") && !r.stderr.contains("\(name) needs"), "\(args): \(r.stderr)")
                #expect(!r.stderr.contains("takes no value"), "\(args): \(r.stderr)")
                tried += 1
            }
        }
        #expect(tried > 80)
    }

    @Test func helpAndCompletionsListTheSameOptions() throws {
        let commands = try manPageOptions()
        let bash = try CLI.run(["completions", "bash"]).stdout
        let fish = try CLI.run(["completions", "fish"]).stdout
        let zsh = try CLI.run(["completions", "zsh"]).stdout
        for (command, options) in commands {
            let help = try CLI.run([command, "--help"]).stdout
            let names = Set(options.map(\.name))
            // `--help` lists each option as "  -x, --name" or "      --name".
            let listed = Set(
                help.split(separator: "\n").compactMap { line -> String? in
                    let t = line.drop { $0 == " " }
                    guard [2, 6].contains(line.count - t.count) else { return nil }  // not prose nor wrapped help
                    let word = (t.hasPrefix("-") && !t.hasPrefix("--") ? t.dropFirst(4) : t).prefix { $0 != " " }
                    return word.hasPrefix("--") ? String(word) : nil
                })
            #expect(listed == names, "\(command): help \(listed.symmetricDifference(names))")
            let line = bash.split(separator: "\n").first { $0.hasPrefix("            \(command)) COMPREPLY") }
            let words = Set(
                (line ?? "").split(separator: "\"")[1].split(separator: " ").map(String.init).filter { $0.hasPrefix("--") })
            #expect(words == names, "\(command): bash \(words.symmetricDifference(names))")
            for name in names {
                #expect(fish.contains("__fish_seen_subcommand_from \(command)'") && fish.contains(" -l \(name.dropFirst(2)) "))
                #expect(zsh.contains("\(name)"), "\(command) \(name) in zsh")
            }
        }
    }
}
