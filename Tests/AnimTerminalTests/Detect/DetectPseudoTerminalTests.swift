import AnimKit
import AnimTestSupport
import Foundation
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// `TerminalProbe.detect` against pseudo-terminals played by a thread:
/// kitty, xterm as a VT340, tmux, a silent terminal, one with pixels in
/// TIOCGWINSZ, and hostile ones. Each gives the right protocol, in time;
/// the tty mode is as it was; keys typed meanwhile come back.
@Suite(.serialized) struct DetectPseudoTerminalTests {
    typealias S = ReplySamples
    static let ms = Duration.milliseconds(1)
    /// Time allowed past the probe's own 100 ms budget (or past the last
    /// reply): 50 ms, or 300 ms under a sanitizer, where the instrumented
    /// parser and the other tests running beside it on two cores take longer
    /// (155 ms was seen in CI for the endless-garbage case, 169 ms for the
    /// unterminated megabyte string). Under a sanitizer the bound catches a
    /// round that ignores its deadline, not a slow one.
    static let slack = ProcessInfo.processInfo.environment["ANIM_SANITIZER"] == nil ? ms * 50 : ms * 300
    /// The bound for a whole probe: its budget and the slack.
    static let bound = ms * 100 + slack
    /// The bound after the last reply. It tells a round that ended on its
    /// last reply from one that waited for the deadline, which in every
    /// test here comes at least 70 ms after the last reply. 20 ms was
    /// too tight beside the other suites on two cores: CI saw 30 ms for
    /// the tmux case, whose test took 7 s in all.
    static let afterReply = slack == ms * 50 ? ms * 45 : ms * 60

    struct Outcome {
        var caps: TerminalCapabilities
        /// From the call to its return, and from the last scripted byte to the return.
        var total: Duration
        var afterLastReply: Duration
        var received: [UInt8]
    }

    func probe(
        _ env: [String: String], _ script: FakeTerminal.Script, pixels: (UInt16, UInt16) = (0, 0),
        prepare: (FakeTerminal) -> Void = { _ in }
    ) throws -> Outcome {
        let fake = try FakeTerminal(pixelWidth: pixels.0, pixelHeight: pixels.1, script: script)
        prepare(fake)
        let before = fake.mode()
        fake.start()
        defer { fake.stop() }
        let start = SuspendingClock.now
        let caps = TerminalProbe.detect(environment: env, input: fake.slave, output: fake.slave)
        let end = SuspendingClock.now
        #expect(fake.mode() == before, "the tty mode was not put back exactly")
        let last = fake.lastWrite
        return Outcome(
            caps: caps, total: end - start, afterLastReply: last.map { end - $0 } ?? .nanoseconds(-1), received: fake.received)
    }

    @Test func answersLikeKitty() throws {
        let replies = S.apc("Gi=31;OK") + S.dcs(">|kitty(0.35.2)") + S.csi("6;19;8t") + S.csi("4;456;640t")
        let o = try probe(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], .answer([replies, S.csi("?62;c")], gapMs: 5))
        #expect(o.caps.graphics == [.kitty])
        #expect(o.caps.trueColor && o.caps.answers.answered)
        #expect(o.caps.cell == CellGeometry(width: 8, height: 19))
        #expect(o.caps.answers.version == "kitty(0.35.2)")
        #expect(o.caps.kittyAnimates, "kitty itself plays its animation frames")
        #expect(o.caps.answers.replyCount == 5)
        #expect(o.received.contains(subsequence: Escape.queryKittyGraphics))
        #expect(!o.received.contains(subsequence: Escape.querySixelRegisters), "no sixel query to kitty")
        #expect(!o.received.contains(subsequence: Array("Gi=31;OK".utf8)), "a reply was echoed")
        #expect(o.afterLastReply >= .zero && o.afterLastReply < Self.afterReply, "\(o.afterLastReply) after the last reply")
    }

    /// Terminals that answer kitty's graphics query but are not kitty
    /// (Ghostty and WezTerm by their own replies and variables, and one that
    /// does not name itself): kitty graphics without animation frames.
    @Test(arguments: [
        (["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"], ">|ghostty 1.1.3"),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], ">|WezTerm 20240203-110809-5046fc22"),
        (["TERM": "xterm-256color"], ""),
    ])
    func answersKittyGraphicsButIsNotKitty(env: [String: String], version: String) throws {
        let replies = S.apc("Gi=31;OK") + (version.isEmpty ? [] : S.dcs(version))
        let o = try probe(env, .answer([replies, S.csi("?62;c")], gapMs: 5))
        #expect(o.caps.graphics.contains(.kitty), "\(env)")
        #expect(!o.caps.kittyAnimates, "\(env): a new image each changed frame")
    }

    /// A kitty that reads the shared-memory object the probe offers (the
    /// fake opens it while answering) is noted as such; the object is gone
    /// after the probe whether or not the terminal took it.
    @Test(arguments: [true, false])
    func sharedMemoryOfferedToKitty(reads: Bool) throws {
        let pixel = Locked<[UInt8]?>(nil)
        let name = Locked<String?>(nil)
        let reply = S.apc("Gi=31;OK") + (reads ? S.apc("Gi=32;OK") : S.apc("Gi=32;EBADF:Failed to open file"))
        let o = try probe(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], .answer([reply + S.csi("?62;c")])) { fake in
            fake.onQueries = { [unowned fake] in
                // The name is the payload of the query with i=32.
                let text = String(decoding: fake.received, as: UTF8.self)
                guard let range = text.range(of: "Gi=32,s=1,v=1,a=q,t=s,f=24;"),
                    let end = text[range.upperBound...].firstIndex(of: "\u{1B}")
                else { return }
                let n = String(decoding: Base64.decode(String(text[range.upperBound..<end])), as: UTF8.self)
                name.set(n)
                if reads { pixel.set(KittyScreen.readShared(n)) }
            }
        }
        #expect(o.caps.answers.kittySharedMemory == reads)
        #expect(o.caps.graphics == [.kitty])
        let offered = try #require(name.value)
        #expect(offered.hasPrefix("/\(KittySharedMemory.prefix)\(getpid())-"))
        if reads { #expect(pixel.value == [0, 0, 0], "a 1×1 RGB pixel") }
        let fd = shm_open(offered, O_RDONLY, 0)
        #expect(fd < 0, "the object is gone after the probe")
        if fd >= 0 { close(fd) }
    }

    /// Over ssh nothing in the environment says kitty: the replies do.
    @Test func kittyFoundByItsRepliesAlone() throws {
        let replies = S.apc("Gi=31;OK") + S.dcs(">|kitty(0.35.2)") + S.csi("6;19;8t") + S.csi("?62;c")
        let o = try probe(["TERM": "xterm-256color"], .answer([replies]))
        #expect(o.caps.graphics == [.kitty])
        #expect(o.caps.trueColor && o.caps.terminalName == "kitty")
        #expect(o.caps.reasons.contains("the kitty graphics query was answered OK: kitty graphics"))
        #expect(o.afterLastReply < Self.afterReply)
    }

    @Test func answersLikeXtermAsVT340() throws {
        let replies = [
            S.dcs(">|XTerm(390)") + S.csi("6;13;6t") + S.csi("4;312;480t"),
            S.csi("?1;0;1024S") + S.csi("?2;0;1000;1000S") + S.dcs("0+r") + S.dcs("0+r"),
            S.csi("?63;1;2;4;6;9;15;22c"),
        ]
        let o = try probe(["TERM": "xterm", "XTERM_VERSION": "XTerm(390)"], .answer(replies, gapMs: 3))
        #expect(o.caps.graphics == [.sixel])
        #expect(o.caps.trueColor)
        #expect(o.caps.answers.sixelRegisters == 1024 && o.caps.answers.sixelMaxSize == PixelSize(width: 1000, height: 1000))
        #expect(o.caps.cell == CellGeometry(width: 6, height: 13))
        #expect(o.received.contains(subsequence: Escape.querySixelRegisters + Escape.querySixelGeometry))
        #expect(o.afterLastReply < Self.afterReply, "\(o.afterLastReply)")
    }

    /// Plain xterm: DA1 without 4, no sixel; direct colour from XTGETTCAP.
    @Test func xtermWithoutSixelButDirectColour() throws {
        let replies = S.dcs("1+r524742=38") + S.dcs("0+r5463") + S.csi("?65;1;9c")
        let o = try probe(["TERM": "xterm-256color"], .answer([replies]))
        #expect(o.caps.graphics == [])
        #expect(o.caps.trueColor)
        #expect(o.caps.reasons.contains("XTGETTCAP RGB answered: 24-bit colour"))
        #expect(
            o.received.contains(subsequence: Escape.queryTermcap("RGB"))
                && o.received.contains(subsequence: Escape.queryDirectColour))
    }

    func fakeTmux(_ body: String) throws -> TempDirectory {
        let dir = try TempDirectory()
        try dir.write("bin/tmux", Array("#!/bin/sh\n\(body)\n".utf8), mode: 0o755)
        return dir
    }

    @Test func answersLikeTmux() throws {
        let bin = try fakeTmux("case \"$1\" in show-options) echo on;; display-message) echo 'xterm-kitty 256,RGB,title';; esac")
        let env = [
            "TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TMUX": "/tmp/fake-tmux,1,0",
            "PATH": bin.path + "/bin:/usr/bin:/bin",
        ]
        // tmux answers DA1 at once; kitty outside answers the wrapped query
        // 30 ms later: the round waits for it, and it is not left to the shell.
        let o = try probe(env, .answer([S.csi("?1;2c"), S.apc("Gi=31;OK")], gapMs: 30))
        #expect(o.caps.tmux.inside && o.caps.tmux.passthrough)
        #expect(o.caps.graphics == [.kitty])
        #expect(o.caps.trueColor && o.caps.answers.answered)
        #expect(o.caps.answers.replyCount == 2 && o.caps.answers.pendingInput.isEmpty)
        #expect(o.caps.needsPassthrough(.kitty))
        // Kitty's query wrapped; the rest for tmux itself.
        #expect(
            o.received == Escape.tmuxPassthrough(Escape.queryKittyGraphics) + Escape.queryCellPixels
                + Escape.queryTextAreaPixels + Escape.queryCursorPosition + Escape.queryPrimaryAttributes)
        #expect(o.afterLastReply < Self.afterReply)
    }

    /// The terminal outside never answers the wrapped query: the round
    /// ends at its deadline, not later.
    @Test func tmuxWhoseOuterKittyStaysSilent() throws {
        let bin = try fakeTmux("case \"$1\" in show-options) echo on;; display-message) echo 'xterm-kitty 256,RGB';; esac")
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/fake-tmux,1,0", "PATH": bin.path + "/bin:/usr/bin:/bin"]
        let o = try probe(env, .answer([S.csi("?1;2c")]))
        #expect(o.caps.answers.answered && o.caps.graphics == [.kitty])
        #expect(o.total < Self.bound + Self.ms * 50, "\(o.total)")  // with the tmux commands' 50 ms
    }

    /// GNU screen inside kitty: kitty's variables were inherited; no APC or
    /// DCS query is sent (screen shows them), and text cells are chosen.
    @Test func screenInsideKittyIsAskedNothingItWouldShow() throws {
        let env = ["TERM": "screen.xterm-256color", "STY": "4242.pts-3.host", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor"]
        let o = try probe(env, .answer([S.csi("?1;2c")]))
        #expect(o.caps.graphics.isEmpty && !o.caps.trueColor && o.caps.answers.answered)
        #expect(!o.received.contains(subsequence: [0x1B, 0x5F]) && !o.received.contains(subsequence: [0x1B, 0x50]))
        #expect(o.afterLastReply < Self.afterReply)
    }

    /// GNU screen answers CPR, not DECXCPR (seen answering DA1 alone): it
    /// is asked CPR, and its reply gives the shell's row.
    @Test func cprWhereDECXCPRGoesUnanswered() throws {
        let o = try probe(["TERM": "screen", "STY": "1.pts-0.h"], .answer([S.csi("7;1R") + S.csi("?62;22c")]))
        #expect(o.received.contains(subsequence: Escape.queryPlainCursorPosition + Escape.queryPrimaryAttributes))
        #expect(!o.received.contains(subsequence: Escape.queryCursorPosition))
        #expect(o.caps.answers.cursorRow == 7 && o.caps.answers.pendingInput.isEmpty)
        #expect(o.caps.reasons.contains("CPR: the shell's cursor is on row 7"))
    }

    /// Elsewhere `CSI 7 ; 1 R` is not a reply (DECXCPR was asked) but a key
    /// (F3 with modifiers): it comes back as input.
    @Test func aCPRShapedKeyStaysAKeyElsewhere() throws {
        let o = try probe(["TERM": "xterm-256color"], .answer([S.csi("7;1R") + S.csi("?62;22c")]))
        #expect(o.caps.answers.cursorRow == nil)
        #expect(o.caps.answers.pendingInput == S.csi("7;1R"))
    }

    @Test func tmuxWithoutPassthrough() throws {
        let bin = try fakeTmux("case \"$1\" in show-options) echo off;; display-message) echo 'foot 256,RGB,sixel';; esac")
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/fake-tmux,1,0", "PATH": bin.path + "/bin"]
        let o = try probe(env, .answer([S.csi("?1;2c")]))
        #expect(o.caps.tmux.inside && !o.caps.tmux.passthrough)
        #expect(o.caps.graphics == [] && o.caps.trueColor)
        #expect(!o.received.contains(subsequence: Array("tmux;".utf8)), "nothing wrapped without passthrough")
    }

    /// tmux hangs: each command is killed at 50 ms, the probe goes on.
    @Test func tmuxThatHangsIsKilled() throws {
        let bin = try fakeTmux("echo $$ >> \"$(dirname \"$0\")/pids\"; exec sleep 30")
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/fake-tmux,1,0", "PATH": bin.path + "/bin:/usr/bin:/bin"]
        let o = try probe(env, .answer([S.csi("?1;2c")]))
        #expect(o.total < Self.bound, "\(o.total / Self.ms) ms")
        #expect(o.caps.tmux.inside && o.caps.graphics == [] && o.caps.answers.answered)
        let pids = String(
            decoding: (try? Data(contentsOf: URL(fileURLWithPath: bin.path + "/bin/pids"))) ?? Data(), as: UTF8.self
        )
        .split(separator: "\n").compactMap { Int32($0) }
        #expect(pids.count == 2)
        for pid in pids { #expect(kill(pid, 0) == -1 && errno == ESRCH, "tmux \(pid) still running") }
    }

    @Test func silentTerminalCostsTheTimeout() throws {
        let o = try probe(["TERM": "xterm-256color"], .silent)
        #expect(!o.caps.answers.answered && o.caps.answers.replyCount == 0)
        #expect(o.caps.graphics == [] && o.caps.cell == .assumed)
        #expect(o.total >= Self.ms * 100 && o.total < Self.bound, "\(o.total / Self.ms) ms")
        #expect(o.received.suffix(3).elementsEqual(Escape.queryPrimaryAttributes), "DA1 closes the round")
        #expect(o.caps.reasons.contains("no DA1 reply within 100 ms: the environment's verdict stands"))
    }

    /// A reply cut after its ESC by the deadline (a slow terminal) is not
    /// kept as the Esc key, which would quit the player; keys typed before
    /// it are. (After DA1 a lone ESC is a key: see the test below.)
    @Test func aReplyCutByTheDeadlineIsNotAnEscKey() throws {
        let o = try probe(["TERM": "xterm-256color"], .answer([Array("s".utf8) + S.csi("6;19;8t") + [0x1B]]))
        #expect(!o.caps.answers.answered)
        #expect(o.caps.answers.pendingInput == Array("s".utf8), "\(o.caps.answers.pendingInput)")
        #expect(PlayerKey.parse(o.caps.answers.pendingInput) == [.toggleStatus])
    }

    @Test func cellFromWindowSizeWithoutQueries() throws {
        let o = try probe(["TERM": "foot"], .answer([S.csi("?62;4;22c")]), pixels: (640, 456))  // 80×24 cells of 8×19
        #expect(o.caps.cell == CellGeometry(width: 8, height: 19))
        #expect(
            !o.received.contains(subsequence: Escape.queryCellPixels)
                && !o.received.contains(subsequence: Escape.queryTextAreaPixels))
        #expect(o.caps.graphics == [.sixel] && o.caps.answers.answered)
    }

    @Test func keysTypedDuringTheRoundComeBack() throws {
        let o = try probe(
            ["TERM": "xterm-kitty"],
            .answer([
                Array("q".utf8), S.apc("Gi=31;OK") + S.csi("C"),
                S.csi("?62;c") + Array(" ".utf8) + [0x1B],
            ]))
        #expect(o.caps.answers.pendingInput == Array("q".utf8) + S.csi("C") + Array(" ".utf8) + [0x1B])
        #expect(o.caps.graphics == [.kitty])
    }

    /// The caller put the terminal raw already: its mode is left alone,
    /// during the round too (the probe's own mode would also clear ISIG,
    /// which the caller's keeps).
    @Test func rawAlreadyIsLeftAlone() throws {
        var callers: [UInt8] = []
        let during = Locked<[UInt8]>([])
        let o = try probe(["TERM": "xterm-kitty"], .answer([S.apc("Gi=31;OK") + S.csi("?62;c")])) { fake in
            let p = UnsafeMutablePointer<termios>.allocate(capacity: 1)
            defer { p.deallocate() }
            tcgetattr(fake.slave, p)
            p.pointee.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(fake.slave, TCSANOW, p)
            #expect(p.pointee.c_lflag & tcflag_t(ISIG) != 0, "the caller's raw mode keeps ISIG")
            callers = fake.mode()
            fake.onQueries = { [unowned fake] in during.set(fake.mode()) }
        }
        #expect(o.caps.graphics == [.kitty] && o.caps.answers.answered)
        #expect(during.value.count == 60 && during.value == callers, "the mode during the round is the caller's")
    }

    @Test func notATerminalSendsNothing() throws {
        let start = SuspendingClock.now
        let caps = try withPipe { read, write in
            TerminalProbe.detect(environment: ["TERM": "xterm-kitty"], input: read, output: write)
        }
        #expect(SuspendingClock.now - start < Self.afterReply)
        #expect(caps.graphics == [.kitty] && caps.answers.duration == nil)
        #expect(caps.reasons.last == "input or output is not a terminal: no queries")
    }

    // Hostile terminals: the round ends at the timeout, memory stays bounded.

    @Test func endlessGarbage() throws {
        var rng = FuzzRandom(state: 9)
        let garbage = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }.filter { $0 != UInt8(ascii: "c") }
        let o = try probe(["TERM": "xterm-256color"], .flood(garbage, limit: nil))
        #expect(!o.caps.answers.answered)
        #expect(o.total < Self.bound, "\(o.total / Self.ms) ms")
        #expect(
            o.caps.answers.pendingInput.count <= TerminalProbe.maxPendingInput
                && o.caps.answers.replyCount <= TerminalProbe.maxReplies)
    }

    @Test func megabyteOfRepliesWithoutTheSentinel() throws {
        let pattern = S.csi("6;19;8t") + S.apc("Gi=31;OK") + Array("x".utf8)
        let o = try probe(["TERM": "xterm-256color"], .flood(pattern, limit: 1 << 20))
        #expect(!o.caps.answers.answered)
        #expect(o.total < Self.bound, "\(o.total / Self.ms) ms")
        #expect(o.caps.answers.replyCount == TerminalProbe.maxReplies)
        #expect(
            o.caps.answers.pendingInput.count <= TerminalProbe.maxPendingInput
                && o.caps.answers.pendingInput.allSatisfy { $0 == UInt8(ascii: "x") })
        #expect(o.caps.cell == CellGeometry(width: 8, height: 19) && o.caps.graphics == [.kitty])
    }

    @Test func megabyteStringNeverTerminated() throws {
        let o = try probe(
            ["TERM": "xterm-256color"],
            .flood(
                [UInt8](repeating: UInt8(ascii: "A"), count: 4096), limit: 1 << 20,
                first: Array("\u{1B}_Gi=31;".utf8)))
        #expect(!o.caps.answers.answered && o.caps.answers.replyCount == 0 && o.caps.answers.pendingInput.isEmpty)
        #expect(o.total < Self.bound, "\(o.total / Self.ms) ms")
    }

    /// SIGHUP in the middle of the round: the mode is put back before the
    /// caller's handler runs; the round goes on and ends as usual.
    @Test func signalDuringTheRoundPutsTheModeBackFirst() throws {
        try ProcessSignals.isolated { try signalDuringTheRound() }
    }

    func signalDuringTheRound() throws {
        let cooked = Locked(false)
        var previous = sigaction()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in SignalRecorder.count += 1 }
        sigemptyset(&action.sa_mask)
        sigaction(SIGHUP, &action, &previous)
        defer { sigaction(SIGHUP, &previous, nil) }
        SignalRecorder.count = 0
        let o = try probe(["TERM": "xterm-256color"], .silent) { fake in
            fake.onQueries = { [unowned fake] in
                let rawDuring = !fake.isCooked()
                kill(getpid(), SIGHUP)
                usleep(20_000)
                cooked.set(rawDuring && fake.isCooked())
            }
        }
        #expect(SignalRecorder.count == 1)
        #expect(cooked.value, "raw during the round, cooked right after the signal")
        #expect(!o.caps.answers.answered)
    }
}

enum SignalRecorder {
    nonisolated(unsafe) static var count: Int32 = 0
}
