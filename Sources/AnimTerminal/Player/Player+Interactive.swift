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
            // Ctrl-Z: put the terminal back, then stop for real; in the
            // middle of a piece, once it is written (as for SIGINT).
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
    /// Where keys come from: `input` (the caller's), standard input, or the
    /// terminal itself when standard input is the animation (`anim play -`);
    /// `opened`: a descriptor opened here, for the caller to close.
    public static func keyboard(input: Int32?) -> (fd: Int32?, opened: Bool) {
        if let input { return (input, false) }
        if Terminal.isTerminal(0) { return (0, false) }
        let tty = Terminal.openControllingTerminal()
        return (tty, tty != nil)
    }

    func runInteractive() throws {
        let (keys, opened) = Self.keyboard(input: options.input)
        defer { if opened, let keys { close(keys) } }
        let keyboard = keys != nil
        // What the backend leaves in the terminal (kitty's images) is freed
        // by the restore, also on a signal.
        TerminalState.setExtra(backend.finish())
        if options.sharedTerminal {
            // One of several files: the screen is the caller's; this play
            // starts on a blank one and frees what it leaves (kitty's images).
            clearScreen()
        } else {
            Terminal.enter(keyboard: keys, output: options.output)
        }
        defer {
            if options.sharedTerminal {
                writer.write(backend.finish() + Escape.resetAttributes + Escape.clearScreen)
                TerminalState.setExtra([])
            } else {
                Terminal.leave()
            }
        }
        PlayerSignals.install()
        var last = -1
        // Replies that come late (after the probe gave up, or kitty's errors)
        // are taken out of what is read; the rest are keys.
        var replies = TerminalReplyParser()
        if !options.pendingInput.isEmpty, handleInput(options.pendingInput, &replies, &last) {
            stats.outcome = requested ?? .quit
            return
        }
        while true {
            if PlayerSignals.resumed == 1 {
                PlayerSignals.resumed = 0
                Terminal.enter(keyboard: keys, output: options.output, resuming: true)
                PlayerSignals.install()
                backend.invalidate()
                titleDrawn = false
                last = -1
            }
            if PlayerSignals.resized == 1 {
                PlayerSignals.resized = 0
                clearScreen()
                try relayout()
                last = -1
            }
            try refreshStream()
            let tick = scheduler.tick()
            stats.framesDropped += tick.skipped
            if tick.frame != last {
                if try !show(tick.frame) {
                    stats.outcome = .outputClosed
                    return
                }
                last = tick.frame
            }
            if tick.finished || timeIsUp { return }
            var timeout =
                tick.nextDeadline.map {
                    max(0, Int32(min((wake(at: $0) - clock.nanoseconds() + 999_999) / 1_000_000, 1000)))
                } ?? 250
            if scheduler.isWaitingForFrames { timeout = min(timeout, 10) }  // look for frames of a stream soon
            if replies.isHoldingSequence { timeout = min(timeout, 30) }  // an Esc alone is a key soon
            guard keyboard else {
                clock.sleep(until: clock.nanoseconds() + Int64(timeout) * 1_000_000)
                continue
            }
            var pfd = pollfd(fd: keys ?? 0, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, timeout) > 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                let n = read(keys ?? 0, &buffer, buffer.count)
                if n > 0, handleInput(Array(buffer[0..<n]), &replies, &last) {
                    stats.outcome = requested ?? .quit
                    return
                }
            } else if replies.isHoldingSequence {
                // A lone Esc held for what might follow: nothing did.
                if handle(PlayerKey.parse(replies.flush()), &last) {
                    stats.outcome = requested ?? .quit
                    return
                }
            }
        }
    }

    /// Splits what was read into replies (to the backend) and keys; true to quit.
    func handleInput(_ bytes: [UInt8], _ replies: inout TerminalReplyParser, _ last: inout Int) -> Bool {
        let (found, keys) = replies.feed(bytes)
        for reply in found where backend.handleReply(reply) { last = -1 }
        return handle(PlayerKey.parse(keys), &last)
    }

    /// Default colours, every cell blank (before a new layout).
    func clearScreen() {
        titleDrawn = false
        writer.write(Escape.resetAttributes + Escape.clearScreen)
    }

    /// Applies keys; true to quit.
    func handle(_ keys: [PlayerKey], _ last: inout Int) -> Bool {
        for key in keys {
            switch key {
            case .quit: return true
            case .togglePause: scheduler.togglePause()
            case .stepForward: scheduler.step(by: 1)
            case .stepBack: scheduler.step(by: -1)
            case .faster: scheduler.speed = min(scheduler.speed * 2, 64)
            case .slower: scheduler.speed = max(scheduler.speed / 2, 1.0 / 64)
            case .reverse:
                // Not while a stream is still arriving: its frames are added at the end.
                if !scheduler.isOpenEnded { scheduler.mode = scheduler.mode == .reverse ? .forward : .reverse }
            case .restart: scheduler.restart()
            case .toggleStatus:
                options.showStatus.toggle()
                clearScreen()
                try? relayout()
            case .next, .previous:
                // Only in a list of files; one file ignores them.
                guard options.playlist else { continue }
                requested = key == .next ? .next : .previous
                return true
            }
            last = -1  // redraw: the status line shows speed and pause
        }
        return false
    }
}
