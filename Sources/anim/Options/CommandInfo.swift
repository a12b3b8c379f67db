import AnimKit

/// What `anim` knows of a subcommand before it runs: its name, its line in
/// `anim --help`, its usage, what it does, and its options by group.
/// `--help`, `anim help COMMAND`, the man page and the completions are
/// made from it.
struct CommandInfo: Sendable {
    let name: String
    /// Its line in `anim --help`.
    let summary: String
    /// The usage lines after `anim NAME` ("IN OUT [options]").
    let synopsis: [String]
    /// What it does: paragraphs, shown as written.
    let description: String
    /// Its own options by group; `Option.common` (and, for a command that
    /// reads animations, `Option.reading`) follow.
    let groups: [OptionGroup]
    /// How many operands it takes.
    let operands: ClosedRange<Int>
    /// What an operand completes to in the shells.
    var operandCompletion = Option.Completion.file
    /// Whether it reads animations (and so takes the reading options).
    var reads = true
    /// Text after the options (keys, exit status), shown as written.
    var epilogue = ""

    /// Every group, the command's own first.
    var allGroups: [OptionGroup] { groups + (reads ? [Option.reading] : []) + [Option.common] }

    /// Every option it takes.
    var options: [Option] { allGroups.flatMap(\.options) }

    /// `anim NAME --help`.
    var help: String {
        var s = ""
        for (i, line) in synopsis.enumerated() { s += (i == 0 ? "usage: " : "       ") + "anim \(name) \(line)\n" }
        s += "\n" + description.trimmingTrailingNewlines + "\n"
        for group in allGroups {
            s += "\n\(group.title):\n"
            for option in group.options { s += HelpLayout.entry(option.label, option.help) }
        }
        if !epilogue.isEmpty { s += "\n" + epilogue.trimmingTrailingNewlines + "\n" }
        return s
    }
}

/// The columns of the help: a label, then its text wrapped at 80.
enum HelpLayout {
    static let column = 24
    static let width = 80

    static func entry(_ label: String, _ text: String, column: Int = column) -> String {
        let lead = "  " + label
        let pad = String(repeating: " ", count: column)
        let head = lead.count + 1 < column ? lead.padding(column) : lead + "\n" + pad
        return head + wrap(text, width: width - column).joined(separator: "\n" + pad) + "\n"
    }

    /// Words in lines of at most `width` characters (a longer word alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var s = self
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }
}
