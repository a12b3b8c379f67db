import AnimTestSupport
import Foundation
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// The helpers that ask tmux: `BoundedCommand` (deadline, process group
/// killed) and `TmuxClient.query` against a real tmux server when tmux is
/// installed.
@Suite(.serialized) struct DetectTmuxTests {
    @Test func commandOutputAndStatus() throws {
        let env = ["PATH": "/usr/bin:/bin"]
        let out = BoundedCommand.run(
            [["printf", "on\\n"], ["sh", "-c", "exit 3"], ["no-such-program-anim"]], environment: env, timeoutMs: 5_000)
        #expect(out[0] == Array("on\n".utf8))
        #expect(out[1] == nil && out[2] == nil)
        // The environment given is the child's.
        #expect(
            BoundedCommand.run(
                [["sh", "-c", "echo $ANIM_X"]], environment: env.merging(["ANIM_X": "42"]) { $1 }, timeoutMs: 5_000)[0]
                == Array("42\n".utf8))
    }

    /// A command past its deadline is killed with everything it started.
    @Test func lateCommandKilledWithItsGroup() throws {
        let dir = try TempDirectory()
        let script = "sleep 30 & echo $! > \(dir.path)/child; echo $$ > \(dir.path)/shell; wait"
        let start = SuspendingClock.now
        let out = BoundedCommand.run([["sh", "-c", script]], environment: ["PATH": "/usr/bin:/bin"], timeoutMs: 50)
        let elapsed = SuspendingClock.now - start
        #expect(out == [nil])
        #expect(elapsed >= .milliseconds(50) && elapsed < .milliseconds(100), "\(elapsed)")
        for name in ["shell", "child"] {
            let text = (try? String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)) ?? ""
            let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), "\(name) never started")
            // Gone, or a zombie waiting for its new parent to reap it.
            var gone = false
            for _ in 0..<100 where !gone {
                gone = !isRunning(pid)
                if !gone { usleep(1000) }
            }
            #expect(gone, "\(name) \(pid) still running")
        }
    }

    /// Whether `pid` exists and is not a zombie.
    func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    /// A real tmux server (skipped without tmux): the pane's own setting is read.
    @Test func realTmuxServer() throws {
        guard access("/usr/bin/tmux", X_OK) == 0 else { return }
        let socket = "anim-detect-\(getpid())"
        let env = ["PATH": "/usr/bin:/bin", "HOME": "/tmp"]
        func tmux(_ args: [String]) -> String? {
            BoundedCommand.run([["tmux", "-L", socket, "-f", "/dev/null"] + args], environment: env, timeoutMs: 5_000)[0]
                .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        #expect(tmux(["new-session", "-d", "-s", "probe", "sleep 60"]) != nil)
        defer { _ = tmux(["kill-server"]) }
        let path = try #require(tmux(["display-message", "-p", "#{socket_path},#{pid},0"]))
        let pane = try #require(tmux(["display-message", "-p", "#{pane_id}"]))
        let inside = env.merging(["TMUX": path, "TMUX_PANE": pane]) { $1 }
        let off = try #require(TmuxClient.query(environment: inside, timeoutMs: 2_000))
        #expect(off == TmuxClient(passthrough: false, termName: "", features: []))  // no client attached
        #expect(tmux(["set-option", "-p", "-t", pane, "allow-passthrough", "on"]) != nil)
        #expect(TmuxClient.query(environment: inside, timeoutMs: 2_000)?.passthrough == true)
    }
}
