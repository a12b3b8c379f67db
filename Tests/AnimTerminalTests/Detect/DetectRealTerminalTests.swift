import Foundation
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// The probe in a real terminal: run by `Tools/detect/real-terminals.sh`
/// inside xterm (under Xvfb) and inside tmux in it, with what to expect in
/// `ANIM_DETECT_EXPECT` (`sixel`, `text`, …; with `+24bit` for direct
/// colour, `+tmux` for tmux). The report goes to `ANIM_DETECT_REPORT`.
/// Off in ordinary runs: there is no terminal to ask.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ANIM_DETECT_EXPECT"] != nil))
struct DetectRealTerminalTests {
    @Test func probesTheControllingTerminal() throws {
        let env = TerminalProbe.processEnvironment()
        let expect = try #require(env["ANIM_DETECT_EXPECT"]).split(separator: "+").map(String.init)
        let tty = try #require(Terminal.openControllingTerminal())
        let out = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        defer {
            close(tty)
            close(out)
        }
        let before = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        let after = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        defer {
            before.deallocate()
            after.deallocate()
        }
        // glibc's tcgetattr leaves the padding alone: zero it to compare.
        memset(before, 0, MemoryLayout<termios>.stride)
        memset(after, 0, MemoryLayout<termios>.stride)
        tcgetattr(tty, before)
        let start = SuspendingClock.now
        let caps = TerminalProbe.detect(environment: env, input: tty, output: out)
        let total = SuspendingClock.now - start
        tcgetattr(tty, after)
        let report = caps.describe() + "\ncall: \(total / .microseconds(1)) µs in all\n"
        if let path = env["ANIM_DETECT_REPORT"] { try Data(report.utf8).write(to: URL(fileURLWithPath: path)) }
        #expect(memcmp(before, after, MemoryLayout<termios>.stride) == 0, "tty mode changed")
        #expect(caps.answers.answered, "\(report)")
        #expect(caps.best.rawValue == expect[0], "\(report)")
        #expect(caps.trueColor == expect.contains("24bit"), "\(report)")
        #expect(caps.tmux.inside == expect.contains("tmux"), "\(report)")
        #expect(total < .milliseconds(300), "\(report)")
    }
}
