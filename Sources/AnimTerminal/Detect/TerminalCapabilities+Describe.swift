/// The report `anim play --probe` prints.
extension TerminalCapabilities {
    /// What was found, one line per finding, then why (`reasons`) and how
    /// long the query round took.
    public func describe() -> String {
        var lines: [String] = []
        let name = terminalName.isEmpty ? "unknown" : terminalName
        lines.append("terminal: \(name)" + (terminalVersion.map { " (\($0))" } ?? ""))
        let list = graphics.isEmpty ? "none" : graphics.map(\.rawValue).joined(separator: ", ")
        lines.append("graphics: \(list); auto picks \(best.rawValue)")
        lines.append("colour: \(trueColor ? "24-bit" : "256 colours")")
        lines.append("cell: \(cell.width)×\(cell.height) px (\(cell.isMeasured ? "measured" : "assumed"))")
        if sixelRegisters != nil || sixelMaxWidth != nil {
            let registers = sixelRegisters.map { "\($0) colour registers" } ?? "colour registers not reported"
            let size = sixelMaxWidth.map { w in "up to \(w)×\(sixelMaxHeight ?? 0) px" } ?? "size not reported"
            lines.append("sixel: \(registers), \(size)")
        }
        if tmux {
            let through = tmuxPassthrough ? "passthrough on" : "passthrough off"
            lines.append("tmux: yes, \(through)" + (sixelByTmux ? ", tmux draws sixel" : ""))
        }
        lines.append("query round: " + roundSummary)
        if !pendingInput.isEmpty { lines.append("input during the round: \(pendingInput.count) bytes (kept as keys)") }
        for reason in reasons { lines.append("because: \(reason)") }
        return lines.joined(separator: "\n")
    }

    /// `2.1 ms, 7 replies, answered` / `100.0 ms, no answer` / `not sent`.
    var roundSummary: String {
        guard let ns = queryNanoseconds else { return "not sent" }
        let tenths = (ns + 50_000) / 100_000
        let ms = "\(tenths / 10).\(tenths % 10) ms"
        return answered ? "\(ms), \(replyCount) replies, answered (DA1 seen)" : "\(ms), \(replyCount) replies, no DA1"
    }
}
