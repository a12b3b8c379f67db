import AnimKit

/// Reads a command line against a command's declared options: long
/// options (`--name value`, `--name=value`, older spellings too), short
/// ones (`-o out`, `-oout`, combined flags `-qj`), `--` ending the
/// options, `-` an operand. Values are checked against their declarations
/// here, so a command reads them already valid.
struct OptionParser {
    let info: CommandInfo
    private var byName: [String: Option] = [:]
    private var byShort: [Character: Option] = [:]

    init(_ info: CommandInfo) {
        self.info = info
        for option in info.options {
            for name in [option.name] + option.aliases { byName[name] = option }
            if let c = option.short { byShort[c] = option }
        }
    }

    func parse(_ args: [String]) throws -> ParsedArguments {
        var out = ParsedArguments(declared: byName)
        var i = 0
        var onlyOperands = false
        func take(_ option: Option, inline: String?, as typed: String) throws {
            if case .flag = option.value {
                if inline != nil { throw UsageError(message: "\(typed) takes no value") }
                out.given[option.name] = ""
                return
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else { throw UsageError(message: "\(typed) needs a value") }
                value = args[i]
                i += 1
            }
            try option.check(value)
            out.given[option.name] = value
        }
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyOperands || a == "-" || !a.hasPrefix("-") {
                out.operands.append(a)
            } else if a == "--" {
                onlyOperands = true
            } else if a.hasPrefix("--") {
                let body = a.dropFirst(2)
                let eq = body.firstIndex(of: "=")
                let name = String(eq.map { body[..<$0] } ?? body)
                guard let option = byName[name] else { throw UsageError(message: "unknown option --\(name)" + hint(name)) }
                try take(option, inline: eq.map { String(body[body.index(after: $0)...]) }, as: "--" + name)
            } else {
                var letters = a.dropFirst()
                while let c = letters.first {
                    letters = letters.dropFirst()
                    guard let option = byShort[c] else { throw UsageError(message: "unknown option -\(c)") }
                    if case .flag = option.value {
                        try take(option, inline: nil, as: "-\(c)")
                    } else {
                        try take(option, inline: letters.isEmpty ? nil : String(letters), as: "-\(c)")
                        break
                    }
                }
            }
        }
        if !info.operands.contains(out.operands.count) {
            throw UsageError(
                message: out.operands.count < info.operands.lowerBound
                    ? "missing " + (out.operands.isEmpty ? "operands" : "an operand")
                    : "unexpected operand '\(out.operands.last!)'")
        }
        for entry in Limits.entries {
            if let n = out.int(entry.option) { out.limits[keyPath: entry.field] = n }
        }
        if let size = out[.maxMemory] {
            out.limits.maxMemory = try ByteSize.parse(size, option: Option.maxMemory.flag)
            if out.limits.maxMemory == 0 { throw UsageError(message: "--max-memory needs a size above 0, not '\(size)'") }
        }
        return out
    }

    /// Whether a short-option word asks for the help (`-h`, `-qh`), its
    /// letters before the h being flags.
    func isShortHelp(_ word: String) -> Bool {
        guard word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 1 else { return false }
        for c in word.dropFirst() {
            if c == "h" { return true }
            guard let o = byShort[c], case .flag = o.value else { return false }
        }
        return false
    }

    /// " (did you mean --x?)" for a known option that `name` starts, or
    /// that starts `name`.
    private func hint(_ name: String) -> String {
        let close = info.options.map(\.name).filter { $0.hasPrefix(name) || name.hasPrefix($0) }
        return close.count == 1 ? " (did you mean --\(close[0])?)" : ""
    }
}

/// A command line read by `OptionParser`: operands, and each option given
/// (by its declared name), its value checked.
struct ParsedArguments {
    var operands: [String] = []
    /// Option name to value ("" for a flag).
    var given: [String: String] = [:]
    /// The reading options' limits (`Limits`, `--max-memory`).
    var limits = DecodingLimits()
    /// The command's options by name (and older spelling).
    let declared: [String: Option]
    /// One file of a batch: each file on one thread (no decoding ahead),
    /// the batch spreading the files over the cores instead.
    var inBatch = false

    init(declared: [String: Option] = [:]) { self.declared = declared }

    func flag(_ option: Option) -> Bool { given[option.name] != nil }
    subscript(_ option: Option) -> String? { given[option.name] }
    /// A declared integer option's value (checked when parsed).
    func int(_ option: Option) -> Int? { given[option.name].flatMap { Int($0) } }
    /// A declared number option's value (checked when parsed).
    func number(_ option: Option) -> Double? { given[option.name].flatMap { Double($0) } }
    /// `-q`: no progress, no warnings.
    var quiet: Bool { given[Option.quiet.name] != nil }

    /// How this command line reads an animation: `options` with its limits,
    /// `--merge-zero-delay` and `--no-color-management`.
    func decoding(_ options: DecodingOptions = DecodingOptions()) -> DecodingOptions {
        var options = options
        options.limits = limits
        if inBatch { options.decodeAhead = 0 }
        if flag(.mergeZeroDelay) { options.mergesZeroDelayImages = true }
        if flag(.noColorManagement) { options.colorManagement = .none }
        return options
    }

    /// Refuses every option given that `format` cannot honour.
    func refuseOptions(unhonouredBy format: OutputFormat) throws {
        for name in given.keys.sorted() {
            guard let option = declared[name], let formats = option.formats, !formats.contains(format) else { continue }
            let name = { (f: OutputFormat) in f == .webp ? "WebP" : f.rawValue.uppercased() }
            let names = OutputFormat.allCases.filter(formats.contains).map(name)
            throw UsageError(
                message: "\(option.flag) is for \(Option.either(names)) output, not \(name(format))"
                    + (option.name == "lossy" ? " (WebP: --quality)" : ""))
        }
    }
}
