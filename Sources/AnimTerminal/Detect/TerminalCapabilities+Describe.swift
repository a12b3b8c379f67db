/// The report `anim play --probe` prints.
extension TerminalCapabilities {
    /// What was found, one line per finding, the round, and why (`reasons`).
    public func describe() -> String {
        var lines: [String] = []
        let name = terminalName.isEmpty ? "unknown" : terminalName
        lines.append("terminal: \(name)" + (answers.version.map { " (\($0))" } ?? ""))
        let list = graphics.isEmpty ? "none" : graphics.map(\.rawValue).joined(separator: ", ")
        lines.append("graphics: \(list); auto picks \(best.rawValue)")
        lines.append("colour: \(trueColor ? "24-bit" : "256 colours")")
        lines.append("symbols: auto picks \(symbols.rawValue)")
        lines.append("cell: \(cell.width)×\(cell.height) px (\(cell.isMeasured ? "measured" : "assumed"))")
        if answers.sixelRegisters != nil || answers.sixelMaxSize != nil {
            let registers = answers.sixelRegisters.map { "\($0) colour registers" } ?? "colour registers not reported"
            let size = answers.sixelMaxSize.map { "up to \($0.width)×\($0.height) px" } ?? "size not reported"
            lines.append("sixel: \(registers), \(size)")
        }
        if graphics.contains(.kitty) {
            var kitty = [kittyAnimates ? "animation frames played" : "a new image each changed frame"]
            if answers.kittySharedMemory { kitty.append("pixels through shared memory (this machine)") }
            lines.append("kitty: " + kitty.joined(separator: "; "))
        }
        if tmux.inside {
            let through = tmux.passthrough ? "passthrough on" : "passthrough off"
            lines.append("tmux: yes, \(through)" + (tmux.drawsSixel ? ", tmux draws sixel" : ""))
        }
        lines.append("query round: " + roundSummary)
        if !answers.pendingInput.isEmpty {
            lines.append("input during the round: \(answers.pendingInput.count) bytes (kept as keys)")
        }
        for reason in reasons { lines.append("because: \(reason)") }
        return lines.joined(separator: "\n")
    }

    /// `2.1 ms, 7 replies, answered` / `100.0 ms, no answer` / `not sent`.
    var roundSummary: String {
        guard let duration = answers.duration else { return "not sent" }
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + (attoseconds / 1_000_000_000 + 50_000) / 100_000
        let ms = "\(tenths / 10).\(tenths % 10) ms"
        return "\(ms), \(answers.replyCount) replies, " + (answers.answered ? "answered (DA1 seen)" : "no DA1")
    }
}
