import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Finds out what the terminal draws (graphics protocols, 24-bit colour,
/// the cell's size) without ever blocking: the environment decides first
/// (`fromEnvironment`), then one round of queries is read until DA1's
/// reply or `timeoutMs` (`detect`).
public enum TerminalProbe {
    /// The most non-reply input bytes kept from the round.
    public static let maxPendingInput = 4096
    /// The most replies kept from the round.
    public static let maxReplies = 64
    /// How long each tmux command may take (they run side by side).
    public static let tmuxTimeoutMs = 50

    /// The process's environment as a dictionary (from `environ`).
    public static func processEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }

    /// The environment's verdict, then one round of queries when `input` and
    /// `output` are terminals. Call it before the player puts the terminal raw:
    /// it takes the tty into its own mode for the round and puts back what it
    /// found (a raw terminal is left alone). Bytes typed meanwhile come back in
    /// `pendingInput`. Inside tmux, tmux is asked first (two commands, at most
    /// `tmuxTimeoutMs`). `clock` times the round and the commands.
    public static func detect(
        environment env: [String: String], input: Int32, output: Int32,
        timeoutMs: Int = 100, clock: any Clock<Duration> = SuspendingClock()
    ) -> TerminalCapabilities {
        let inTmux = insideTmux(env)
        let tmux = inTmux ? TmuxClient.query(environment: env, timeoutMs: tmuxTimeoutMs, clock: clock) : nil
        let infoName = inTmux ? (tmux?.termName ?? "") : (env["TERM"] ?? "")
        let terminfo = infoName.isEmpty ? nil : Terminfo.load(term: infoName, environment: env)
        var caps = fromEnvironment(env, terminfo: terminfo, tmux: tmux)
        guard isatty(input) == 1, isatty(output) == 1 else {
            caps.note("input or output is not a terminal: no queries")
            return caps
        }
        let size = Terminal.windowSize(fd: output) ?? Terminal.windowSize(fd: input)
        if let size,
            let cell = CellGeometry.from(
                pixelWidth: size.pixelWidth, pixelHeight: size.pixelHeight,
                columns: size.columns, rows: size.rows)
        {
            caps.cell = cell
            caps.note(
                "TIOCGWINSZ: \(size.pixelWidth)×\(size.pixelHeight) px over \(size.columns)×\(size.rows) cells: cell \(cell.width)×\(cell.height) px"
            )
        }
        // A background job reading its terminal is stopped by SIGTTIN (or
        // gets EIO); one not ours to control (tcgetpgrp fails) can be read.
        let foreground = tcgetpgrp(input)
        guard foreground < 0 || foreground == getpgrp() else {
            caps.note("not in the terminal's foreground process group: no queries")
            return caps
        }
        let pixel = KittySharedMemory()
        guard
            let plan = QueryPlan(
                environment: env, caps: caps,
                sharedMemory: {
                    KittySharedMemory.removeStale()
                    return [UInt8](repeating: 0, count: 3).withUnsafeBytes { pixel.store($0) }
                })
        else {
            caps.note("TERM=\(env["TERM"] ?? ""): no queries")
            return caps
        }
        // kitty unlinks the object it read; any other terminal leaves it.
        defer { if let name = plan.kittySharedMemory { KittySharedMemory.remove(name) } }
        // Inside tmux a kitty outside answers after tmux's DA1: wait for it.
        let round = QueryRound.run(
            plan.bytes, input: input, output: output, timeoutMs: timeoutMs, clock: clock,
            awaitKitty: plan.kittyWrapped && caps.graphics.contains(.kitty), plainCursorPosition: plan.plainCursorPosition)
        record(round, plan: plan, size: size, timeoutMs: timeoutMs, to: &caps)
        return caps
    }

    /// What the round brought, into `caps`.
    static func record(
        _ round: QueryRound, plan: QueryPlan, size: Terminal.WindowSize?, timeoutMs: Int,
        to caps: inout TerminalCapabilities
    ) {
        caps.answers.duration = .nanoseconds(round.elapsed)
        caps.answers.answered = round.sawSentinel
        caps.answers.replyCount = round.replies.count
        caps.answers.pendingInput = round.pending
        apply(round.replies, answered: round.sawSentinel, plan: plan, size: size, to: &caps)
        switch round.end {
        case .sentinel: break
        case .timeout: caps.note("no DA1 reply within \(timeoutMs) ms: the environment's verdict stands")
        case .writeFailed(let e): caps.note("the queries could not be written (errno \(e)): the environment's verdict stands")
        case .inputEnded(let e): caps.note("input ended before DA1 (\(e)): the environment's verdict stands")
        }
    }
}
