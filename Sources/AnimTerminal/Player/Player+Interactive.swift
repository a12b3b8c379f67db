import AnimKit

#if canImport(Glibc)
    import Glibc
#endif

/// Flags set by signal handlers, read by the play loop.
enum PlayerSignals {
    nonisolated(unsafe) static var resized: Int32 = 0
    nonisolated(unsafe) static var resumed: Int32 = 0

    static func install() {
        Terminal.unblockSignals([SIGWINCH, SIGCONT, SIGTSTP])
        signal(SIGWINCH) { _ in PlayerSignals.resized = 1 }
        signal(SIGCONT) { _ in PlayerSignals.resumed = 1 }
        signal(SIGTSTP) { _ in
            // Ctrl-Z: put the terminal back, then stop (after the piece).
            if TerminalState.writing == 1 {
                // A quit already pending wins over the suspend.
                if TerminalState.pendingSignal == 0 { TerminalState.pendingSignal = SIGTSTP }
                return
            }
            TerminalState.suspendFromSignal()
        }
    }
}

extension Player {
    /// Where keys come from: `input`, standard input, or the terminal when
    /// standard input is the animation; `opened`: for the caller to close.
    public static func keyboard(input: Int32?) -> (fd: Int32?, opened: Bool) {
        if let input { return (input, false) }
        if Terminal.isTerminal(0) { return (0, false) }
        let tty = Terminal.openControllingTerminal()
        return (tty, tty != nil)
    }

    /// Enters the terminal for a full-screen play on `output` (in GNU screen
    /// the shell's lines are scrolled away, so no shell row is kept).
    public static func enterTerminal(keyboard: Int32?, output: Int32, _ terminal: inout TerminalCapabilities) {
        Terminal.enter(
            keyboard: keyboard, output: output, inScreen: terminal.insideScreen,
            scrollAway: terminal.answers.cursorRow.map { $0 - 1 })
        if terminal.insideScreen { terminal.answers.cursorRow = nil }
    }

    /// Full screen (or one of a list): the terminal entered, played with keys, restored.
    func runInteractive() throws {
        let (keys, opened) = Self.keyboard(input: options.input)
        defer { if opened, let keys { close(keys) } }
        // What backends leave in the terminal is freed by the restore, also on a signal.
        TerminalState.setExtra(panes.flatMap { $0.backend.finish() })
        let shared = options.presentation == .list
        if shared {
            // The caller's screen: start blank, free what this play leaves.
            clearScreen()
        } else {
            Self.enterTerminal(keyboard: keys, output: options.output, &terminal)
        }
        defer {
            if shared {
                writer.write(panes.flatMap { $0.backend.finish() } + Escape.resetAttributes + Escape.clearScreen)
                TerminalState.setExtra([])
            } else {
                Terminal.leave()
            }
        }
        PlayerSignals.install()
        try play(keys: keys)
    }

    /// Ctrl-Z's resume and a resize: the panes laid out again and drawn whole.
    func takeSignals(_ keys: Int32?, _ last: inout [Int]) throws {
        if PlayerSignals.resumed == 1 {
            PlayerSignals.resumed = 0
            Terminal.enter(keyboard: keys, output: options.output, resuming: true, inScreen: terminal.insideScreen)
            PlayerSignals.install()
            for p in panes {
                p.backend.invalidate()
                p.layout.titleDrawn = false
            }
            for i in last.indices { last[i] = -1 }
        }
        if PlayerSignals.resized == 1 {
            PlayerSignals.resized = 0
            clearScreen()
            try layOut()
            for i in last.indices { last[i] = -1 }
        }
    }

    /// Replies go to the backends, keys to every pane; true when a key ends the play.
    func handle(_ input: (replies: [TerminalReply], other: [UInt8]), _ last: inout [Int]) -> Bool {
        for reply in input.replies {
            for (i, p) in panes.enumerated() where p.backend.handleReply(reply) { last[i] = -1 }
        }
        for key in PlayerKey.parse(input.other) {
            switch key {
            case .quit: return end(.quit)
            case .next, .previous:
                // Only in a list of files; one file ignores them.
                guard options.presentation == .list else { continue }
                return end(key == .next ? .next : .previous)
            case .toggleStatus:
                guard grid == nil else { continue }  // a grid has no status line
                options.showStatus.toggle()
                clearScreen()
                try? layOut()
            default:
                for p in panes { key.apply(to: p.scheduler) }
            }
            for i in last.indices { last[i] = -1 }  // redraw: the status line shows speed and pause
        }
        return false
    }

    /// Default colours, every cell blank; with sixel, the screen scrolled
    /// off first to free xterm's graphics (`SixelBackend.clearing`).
    func clearScreen() {
        for p in panes { p.layout.titleDrawn = false }
        if panes.contains(where: { $0.backend is SixelBackend }) {
            // The window's rows even under `--rows`: every graphic must go.
            let rows = max(Terminal.windowSize(fd: options.output)?.rows ?? 0, Self.screen(options).rows)
            writer.write(SixelBackend.clearing(rows: rows))
        } else {
            writer.write(Escape.resetAttributes + Escape.clearScreen)
        }
    }
}
