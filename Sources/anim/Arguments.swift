import AnimKit

/// Which options a command takes: flags, and options with a value.
struct OptionSpec {
    var flags: Set<String> = []
    var valued: Set<String> = []
    /// How many positional arguments: a closed range.
    var positional: ClosedRange<Int>

    func parse(_ args: [String]) throws -> ParsedArguments {
        var out = ParsedArguments()
        var i = 0
        var onlyPositional = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositional || !a.hasPrefix("--") || a == "-" {
                out.positional.append(a)
                continue
            }
            if a == "--" {
                onlyPositional = true
                continue
            }
            var name = a
            var inline: String? = nil
            if let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            if flags.contains(name) || Limits.flags.contains(name) {
                if inline != nil { throw UsageError(message: "\(name) takes no value") }
                out.flags.insert(name)
            } else if valued.contains(name) || Limits.valued.contains(name) {
                if let inline {
                    out.values[name] = inline
                    continue
                }
                guard i < args.count else { throw UsageError(message: "\(name) needs a value") }
                out.values[name] = args[i]
                i += 1
            } else {
                throw UsageError(message: "unknown option \(name)")
            }
        }
        if !positional.contains(out.positional.count) {
            throw UsageError(
                message: out.positional.count < positional.lowerBound
                    ? "missing argument" : "unexpected argument '\(out.positional.last!)'")
        }
        out.limits = try Limits.parse(out)
        return out
    }
}

/// The result of parsing a command line.
struct ParsedArguments {
    var positional: [String] = []
    var flags: Set<String> = []
    var values: [String: String] = [:]
    /// `--max-canvas-pixels`, `--max-frames`, `--max-decoded-bytes` (`Limits`).
    var limits = DecodingLimits()

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// How this command line reads an animation: `options` with its limits
    /// and decoding flags (`Limits.decoding`).
    func decoding(_ options: DecodingOptions = DecodingOptions()) -> DecodingOptions {
        Limits.decoding(options, self)
    }

    /// A positive integer option, or `fallback` when absent.
    func int(_ name: String, default fallback: Int, min: Int = 1, max: Int = Int.max) throws -> Int {
        guard let v = values[name] else { return fallback }
        guard let n = Int(v), n >= min, n <= max else {
            throw UsageError(
                message: max == Int.max
                    ? "\(name) needs an integer ≥ \(min), not '\(v)'"
                    : "\(name) needs an integer from \(min) to \(max), not '\(v)'")
        }
        return n
    }
}
