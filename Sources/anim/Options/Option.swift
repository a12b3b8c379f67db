import AnimKit

/// One command-line option, declared once: parsing, each command's
/// `--help`, `anim help COMMAND`, usage errors, the man page and the shell
/// completions are all made from these declarations.
struct Option: Sendable {
    /// The long name, without its dashes ("quality").
    let name: String
    /// The one-letter name, if any (`-q`).
    let short: Character?
    /// What follows the option on the command line.
    let value: Value
    /// What it does, its values and its default, in sentences (wrapped
    /// when shown).
    let help: String
    /// The output formats it means something for; any other output
    /// format refuses it (nil: every format, or the command writes none).
    let formats: Set<OutputFormat>?
    /// Older spellings still read (without dashes): `--loop` for `--loops`.
    let aliases: [String]

    init(
        _ name: String, short: Character? = nil, _ value: Value = .flag, formats: Set<OutputFormat>? = nil,
        aliases: [String] = [], help: String
    ) {
        (self.name, self.short, self.value, self.help, self.formats, self.aliases) = (
            name, short, value, help, formats, aliases
        )
    }

    /// What an option takes.
    enum Value: Sendable {
        /// Nothing: the option is a switch.
        case flag
        /// A whole number in a range, shown as `metavar`.
        case integer(String, ClosedRange<Int>)
        /// A number above `above` and at most `atMost`.
        case number(String, above: Double, atMost: Double)
        /// One of these words (any case); `hidden` are accepted, not shown.
        case choice([String], hidden: [String] = [])
        /// Text the command reads itself (a size, a time, a rectangle), or
        /// a path.
        case text(String, Completion = .none)
    }

    /// What the shells offer for an option's value.
    enum Completion: Sendable {
        case none, file, directory
    }

    /// `--name`, as typed.
    var flag: String { "--" + name }

    /// What the help shows for its value ("Q", "gif|apng|webp"); nil for a flag.
    var metavar: String? {
        switch value {
        case .flag: return nil
        case .integer(let metavar, _), .number(let metavar, _, _), .text(let metavar, _): return metavar
        case .choice(let words, _): return words.joined(separator: "|")
        }
    }

    /// "-q, --quality Q", as the help shows it.
    var label: String { (short.map { "-\($0), " } ?? "    ") + flag + (metavar.map { " " + $0 } ?? "") }

    /// Checks a value against the declaration: the usage error names the
    /// option and what it takes.
    func check(_ text: String) throws {
        switch value {
        case .flag, .text: return
        case .integer(_, let range):
            guard let n = Int(text), range.contains(n) else {
                throw UsageError(
                    message: range.upperBound == Int.max
                        ? "\(flag) needs a whole number ≥ \(range.lowerBound), not '\(text)'"
                        : "\(flag) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
        case .number(_, let above, let atMost):
            guard let v = Double(text), v.isFinite, v > above, v <= atMost else {
                throw UsageError(
                    message: "\(flag) needs a number above \(above.plain) and at most \(atMost.plain), not '\(text)'")
            }
        case .choice(let words, let hidden):
            guard (words + hidden).contains(text.lowercased()) else {
                throw UsageError(message: "\(flag) needs \(Self.either(words)), not '\(text)'")
            }
        }
    }

    /// "a, b or c".
    static func either(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}

extension Double {
    /// 64, not 64.0.
    var plain: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// Options under a heading in a command's help.
struct OptionGroup: Sendable {
    let title: String
    let options: [Option]
}
