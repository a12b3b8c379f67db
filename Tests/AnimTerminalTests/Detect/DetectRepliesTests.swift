import Testing

@testable import AnimTerminal

/// What the replies decide over the environment (`TerminalProbe.apply`),
/// and which queries go out (`QueryPlan`).
struct DetectRepliesTests {
    func caps(_ env: [String: String], tmux: TmuxClient? = nil) -> TerminalCapabilities {
        TerminalProbe.fromEnvironment(env, terminfo: nil, tmux: tmux)
    }

    func applied(
        _ env: [String: String], _ replies: [TerminalReply], answered: Bool = true, tmux: TmuxClient? = nil,
        size: Terminal.WindowSize? = nil
    ) -> TerminalCapabilities {
        var c = caps(env, tmux: tmux)
        let plan = QueryPlan(environment: env, caps: c)!
        TerminalProbe.apply(replies, answered: answered, plan: plan, size: size, to: &c)
        return c
    }

    @Test func da1DecidesSixelOutsideTmux() {
        // Konsole ≥ 22.04 by its variable, but its DA1 has no 4: no sixel.
        let konsole = applied(
            ["TERM": "xterm-256color", "KONSOLE_VERSION": "230801"],
            [.kittyGraphics(id: 31, message: "OK"), .primaryAttributes([62, 1])])
        #expect(konsole.graphics == [.kitty])
        #expect(konsole.reasons.contains("DA1 (62;1) does not list 4: no sixel"))
        let windows = applied(
            ["TERM": "xterm-256color", "WT_SESSION": "x"], [.primaryAttributes([61, 4, 6, 7, 14, 21, 22, 23, 24, 28, 32, 42])])
        #expect(windows.graphics == [.sixel] && windows.trueColor)
    }

    @Test func kittyQueryIsTheWordOfTheTerminal() {
        let notKitty = applied(["TERM": "xterm-kitty"], [.primaryAttributes([62])])
        #expect(notKitty.graphics == [])
        #expect(notKitty.reasons.contains("the kitty graphics query was not answered before DA1: no kitty graphics"))
        let refused = applied(
            ["TERM": "xterm-kitty"], [.kittyGraphics(id: 31, message: "ENOTSUPPORTED:no"), .primaryAttributes([62])])
        #expect(refused.graphics == [])
        // Timed out (no DA1): the environment's verdict stands.
        let late = applied(["TERM": "xterm-kitty"], [], answered: false)
        #expect(late.graphics == [.kitty])
        // Another image id's reply is not ours.
        let other = applied(["TERM": "xterm-256color"], [.kittyGraphics(id: 7, message: "OK"), .primaryAttributes([62])])
        #expect(other.graphics == [])
        // WezTerm keeps iTerm2 first when kitty's answer comes.
        let wez = applied(
            ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"],
            [.kittyGraphics(id: 31, message: "OK"), .primaryAttributes([65, 4, 6, 18, 22])])
        #expect(wez.graphics == [.iterm2, .kitty, .sixel])
    }

    @Test func insideTmux() {
        let env = ["TERM": "tmux-256color", "TMUX": "/t,1,0"]
        let client = TmuxClient(passthrough: true, termName: "xterm-kitty", features: ["RGB"])
        // tmux answers DA1 itself: no 4 removes nothing, the wrapped kitty
        // query's silence removes nothing.
        let plain = applied(env, [.primaryAttributes([1, 2])], tmux: client)
        #expect(plain.graphics == [.kitty] && !plain.tmux.drawsSixel)
        // tmux built with sixel lists 4: it draws sixel itself, even without passthrough.
        let off = TmuxClient(passthrough: false, termName: "xterm-256color", features: [])
        let native = applied(env, [.primaryAttributes([1, 2, 4])], tmux: off)
        #expect(native.graphics == [.sixel] && native.tmux.drawsSixel && !native.needsPassthrough(.sixel))
    }

    @Test func cellSizeFromWindowReports() {
        let size: Terminal.WindowSize = (columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0)
        let from16 = applied(
            ["TERM": "xterm"],
            [.cellPixels(width: 9, height: 18), .textAreaPixels(width: 800, height: 480), .primaryAttributes([1])], size: size)
        #expect(from16.cell == CellGeometry(width: 9, height: 18))
        let from14 = applied(["TERM": "xterm"], [.textAreaPixels(width: 800, height: 480), .primaryAttributes([1])], size: size)
        #expect(from14.cell == CellGeometry(width: 10, height: 20) && from14.cell.isMeasured)
        let zeros = applied(
            ["TERM": "xterm"], [.cellPixels(width: 0, height: 0), .textAreaPixels(width: 0, height: 0)], size: size)
        #expect(zeros.cell == .assumed)
    }

    @Test func directColourFromReplies() {
        #expect(applied(["TERM": "xterm"], [.termcap(name: "Tc", value: "")]).trueColor)
        #expect(!applied(["TERM": "xterm"], [.termcap(name: "RGB", value: nil)]).trueColor)
        #expect(applied(["TERM": "xterm"], [.statusString(valid: true, text: "0;38:2::1:2:3m")]).trueColor)
        #expect(applied(["TERM": "xterm"], [.statusString(valid: false, text: "0;38:2::1:2:3m")]).trueColor)
        #expect(applied(["TERM": "xterm"], [.statusString(valid: true, text: "0;38:2:1:2:3m")]).trueColor)
        #expect(applied(["TERM": "xterm"], [.statusString(valid: true, text: "0;38;2;1;2;3m")]).trueColor)
        #expect(!applied(["TERM": "xterm"], [.statusString(valid: true, text: "0;38;5;16m")]).trueColor)
        let xterm = applied(["TERM": "xterm"], [.terminalVersion("XTerm(372)")])
        #expect(xterm.trueColor && xterm.terminalName == "xterm" && xterm.answers.version == "XTerm(372)")
        #expect(applied(["TERM": "xterm-256color"], [.terminalVersion("WezTerm 20240203")]).graphics == [.iterm2])
    }

    /// The shared-memory query goes right after kitty's, outside tmux only,
    /// and its object is made only then.
    @Test func sharedMemoryQueryOnlyBesideAnUnwrappedKittyQuery() {
        var made = 0
        func plan(_ env: [String: String], tmux: TmuxClient? = nil) -> QueryPlan? {
            QueryPlan(
                environment: env, caps: caps(env, tmux: tmux),
                sharedMemory: {
                    made += 1
                    return "/anim-kitty-1-0-1"
                })
        }
        let kitty = plan(["TERM": "xterm-kitty"])!
        #expect(kitty.kittySharedMemory == "/anim-kitty-1-0-1")
        #expect(
            kitty.bytes.starts(
                with: Escape.queryKittyGraphics + Escape.queryKittySharedMemory(name: "/anim-kitty-1-0-1")
                    + Escape.queryTerminalVersion))
        #expect(
            Escape.queryKittySharedMemory(name: "/anim-kitty-1-0-1")
                == Array("\u{1B}_Gi=32,s=1,v=1,a=q,t=s,f=24;L2FuaW0ta2l0dHktMS0wLTE=\u{1B}\\".utf8))
        #expect(made == 1)
        let t = plan(
            ["TERM": "xterm-kitty", "TMUX": "/t,1,0"], tmux: TmuxClient(passthrough: true, termName: "xterm-kitty", features: []))!
        #expect(t.kittyWrapped && t.kittySharedMemory == nil)
        #expect(plan(["TERM": "linux"])!.kittySharedMemory == nil)
        #expect(made == 1, "no object where the query does not go out")
    }

    /// kitty's animation frames only where the terminal is kitty by its
    /// own XTVERSION reply: Ghostty, WezTerm and a terminal that names
    /// itself not at all answer kitty's query OK but get a new image a
    /// frame, and `--probe` says which.
    @Test func kittyAnimationFramesOnlyForKittyItself() {
        func probed(_ env: [String: String], version: String?) -> TerminalCapabilities {
            var c = caps(env)
            let plan = QueryPlan(environment: env, caps: c, sharedMemory: nil)!
            var replies: [TerminalReply] = [.kittyGraphics(id: 31, message: "OK")]
            if let version { replies.append(.terminalVersion(version)) }
            TerminalProbe.apply(replies + [.primaryAttributes([62])], answered: true, plan: plan, size: nil, to: &c)
            return c
        }
        let kitty = probed(["TERM": "xterm-256color"], version: "kitty(0.26.5)")
        #expect(kitty.graphics.first == .kitty && kitty.kittyAnimates)
        #expect(kitty.describe().contains("kitty: animation frames played"))
        for (env, version) in [
            (["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"], "ghostty 1.1.3"),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], "WezTerm 20240203-110809-5046fc22"),
            (["TERM": "xterm-256color"], nil), (["TERM": "xterm-kitty"], nil),
        ] {
            let c = probed(env, version: version)
            #expect(c.graphics.contains(.kitty) && !c.kittyAnimates, "\(env)")
            #expect(c.describe().contains("kitty: a new image each changed frame"), "\(env)")
        }
    }

    @Test func sharedMemoryAnswerDecidesTheMedium() {
        func answered(_ message: String?, offered: Bool = true) -> TerminalCapabilities {
            let env = ["TERM": "xterm-kitty"]
            var c = caps(env)
            let plan = QueryPlan(environment: env, caps: c, sharedMemory: offered ? { "/anim-kitty-1-0-1" } : nil)!
            var replies: [TerminalReply] = [.kittyGraphics(id: 31, message: "OK")]
            if let message { replies.append(.kittyGraphics(id: 32, message: message)) }
            TerminalProbe.apply(replies + [.primaryAttributes([62])], answered: true, plan: plan, size: nil, to: &c)
            return c
        }
        #expect(answered("OK").answers.kittySharedMemory)
        #expect(answered("OK").graphics.first == .kitty)
        #expect(answered("OK").describe().contains("; pixels through shared memory (this machine)"))
        #expect(!answered("EBADF:Failed to open file").describe().contains("shared memory (this"))
        #expect(!answered("EBADF:Failed to open file").answers.kittySharedMemory)
        #expect(answered("EBADF:Failed to open file").graphics.first == .kitty, "kitty graphics all the same")
        #expect(!answered(nil).answers.kittySharedMemory)
        #expect(!answered("OK", offered: false).answers.kittySharedMemory, "a reply to a query not sent")
    }

    @Test func queriesChosenFromTheEnvironment() {
        func plan(_ env: [String: String], tmux: TmuxClient? = nil) -> QueryPlan? {
            QueryPlan(environment: env, caps: caps(env, tmux: tmux))
        }
        #expect(plan(["TERM": "dumb"]) == nil && plan([:]) == nil)
        let kitty = plan(["TERM": "xterm-kitty"])!
        #expect(kitty.kitty && !kitty.sixel && !kitty.directColour && kitty.cellSize)
        #expect(
            kitty.bytes == Escape.queryKittyGraphics + Escape.queryTerminalVersion + Escape.queryCellPixels
                + Escape.queryTextAreaPixels + Escape.queryCursorPosition + Escape.queryPrimaryAttributes)
        let unknown = plan(["TERM": "xterm-256color"])!
        #expect(unknown.kitty && unknown.sixel && unknown.directColour)
        // The Linux console prints APC and DCS bodies: CSI queries only.
        let console = plan(["TERM": "linux"])!
        #expect(!console.kitty && !console.directColour)
        #expect(
            console.bytes == Escape.queryCellPixels + Escape.queryTextAreaPixels + Escape.querySixelRegisters
                + Escape.querySixelGeometry + Escape.queryCursorPosition + Escape.queryPrimaryAttributes)
        let screen = plan(["TERM": "screen-256color"])!
        #expect(!screen.kitty && !screen.directColour)
        // GNU screen under another TERM, and urxvt, print APC and DCS
        // bodies too (urxvt left kitty's query on the shell's line), and
        // have no sixel: CSI queries only.
        for env in [["TERM": "xterm-256color", "STY": "1.pts-0.h", "KITTY_WINDOW_ID": "1"], ["TERM": "rxvt-unicode-256color"]] {
            let p = plan(env)!
            #expect(!p.kitty && !p.sixel && !p.directColour)
            #expect(!p.bytes.contains(subsequence: [0x1B, 0x5F]) && !p.bytes.contains(subsequence: [0x1B, 0x50]), "\(env)")
        }
        // tmux with passthrough and a sixel terminal outside: wrapped.
        let t = plan(
            ["TERM": "tmux-256color", "TMUX": "/t,1,0"], tmux: TmuxClient(passthrough: true, termName: "foot", features: []))!
        #expect(t.kittyWrapped && t.sixel)
        #expect(
            t.bytes == Escape.tmuxPassthrough(Escape.queryKittyGraphics) + Escape.queryCellPixels + Escape.queryTextAreaPixels
                + Escape.tmuxPassthrough(Escape.querySixelRegisters + Escape.querySixelGeometry) + Escape.queryCursorPosition
                + Escape.queryPrimaryAttributes)
    }

    @Test func querySequencesByName() {
        #expect(Escape.queryKittyGraphics == Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8))
        #expect(Escape.queryTermcap("RGB") == Array("\u{1B}P+q524742\u{1B}\\".utf8))
        #expect(Escape.queryTermcap("Tc") == Array("\u{1B}P+q5463\u{1B}\\".utf8))
        #expect(Escape.queryDirectColour == Array("\u{1B}[38;2;1;2;3m\u{1B}P$qm\u{1B}\\\u{1B}[0m".utf8))
        #expect(Escape.queryTerminalVersion == Array("\u{1B}[>0q".utf8))
    }
}
