import AnimTestSupport
import Foundation
import Testing

struct PlayCommandTests {
    func stats(_ stderr: String) throws -> [String: Any] {
        let line = try #require(stderr.split(separator: "\n").last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// `--probe` says what the environment shows and why, and sends no
    /// query without a terminal (TERM=dumb also keeps it off a developer's
    /// real terminal; TMUX is cleared, so the suite passes inside tmux too).
    @Test func probeReportsTheEnvironment() throws {
        let kitty = try CLI.run(
            ["play", "--probe"], stdin: Data(), environment: ["TERM": "dumb", "KITTY_WINDOW_ID": "1", "TMUX": ""])
        #expect(kitty.status == 0)
        #expect(kitty.stdout.contains("graphics: kitty; auto picks kitty"), "\(kitty.stdout)")
        #expect(kitty.stdout.contains("because: KITTY_WINDOW_ID is set"))
        #expect(kitty.stdout.contains("query round: not sent"))
        let plain = try CLI.run(
            ["play", "--probe"], stdin: Data(),
            environment: [
                "TERM": "dumb", "KITTY_WINDOW_ID": "", "TMUX": "",
                "COLORTERM": "", "TERM_PROGRAM": "",
            ])
        #expect(plain.stdout.contains("auto picks text"), "\(plain.stdout)")
    }

    /// Every protocol draws a frame when forced, also without a terminal.
    @Test(arguments: ["kitty", "sixel", "iterm2", "text"])
    func everyProtocolWritesFrames(_ proto: String) throws {
        let r = try CLI.run([
            "play", Fixtures.path("extra/long.gif"), "--no-wait", "--protocol", proto, "--cell", "8x16",
            "--width", "40", "--height", "12",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let marker = [
            "kitty": "\u{1B}_Ga=T,", "sixel": "\u{1B}P0;1;0q", "iterm2": "\u{1B}]1337;File=inline=1", "text": "\u{1B}[48;",
        ][proto]!
        #expect(r.stdout.contains(marker), "\(proto) output")
        let bad = try CLI.run(["play", "--protocol", "vt100"])
        #expect(bad.status == 2 && bad.stderr.contains("--protocol needs"))
    }

    @Test func notATerminalWritesEveryFrameWithStats() throws {
        let r = try CLI.run([
            "play", Fixtures.path("extra/long.gif"), "--no-wait", "--stats", "--loops", "2",
            "--width", "32", "--height", "12",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try stats(r.stderr)
        #expect(
            Set(s.keys) == [
                "framesShown", "framesDropped", "bytesWritten", "firstFrameMs", "meanIntervalMs",
                "stdevIntervalMs", "decodedFrames", "cacheHits", "peakCacheBytes",
            ])
        #expect(s["framesShown"] as? Int == 240 && s["framesDropped"] as? Int == 0)
        #expect(s["bytesWritten"] as? Int == r.stdoutData.count)
        #expect((s["decodedFrames"] as? Int ?? 0) == 120, "the second loop comes from the cache")
        #expect(!r.stdout.contains("\u{1B}[?1049h"), "no alternate screen when not a terminal")
        #expect(r.stdout.hasPrefix("\u{1B}[?2026h"))
    }

    /// kitty keeps the frames it was sent, so the player's cache keeps
    /// only those about to be drawn (sixel, which keeps nothing, caches
    /// them all); the second loop shows kitty's frames, decoding nothing.
    /// That is kitty itself (here known by its variables, output not being
    /// a terminal); another terminal's kitty graphics get a new image for
    /// each changed frame, no animation frame (`a=f`) or control (`a=a`).
    @Test func kittyFramesAreNotCachedTwice() throws {
        let kittyItself = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]
        func run(_ proto: String, _ env: [String: String] = kittyItself) throws -> (stats: [String: Any], out: String) {
            let r = try CLI.run(
                [
                    "play", Fixtures.path("extra/long.gif"), "--no-wait", "--stats", "--loops", "2", "--protocol", proto,
                    "--cell", "8x16", "--width", "40", "--height", "12",
                ], environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            return (try stats(r.stderr), r.stdout)
        }
        let kitty = try run("kitty")
        let sixel = try run("sixel")
        #expect(kitty.stats["decodedFrames"] as? Int == 120, "the second loop from kitty's frames")
        let kept = try #require(kitty.stats["peakCacheBytes"] as? Int)
        let all = try #require(sixel.stats["peakCacheBytes"] as? Int)
        #expect(kept > 0 && kept * 20 < all, "kitty \(kept) bytes cached, sixel \(all)")
        #expect(kitty.out.contains("a=f,") && kitty.out.contains("a=a,"))
        for env in [["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty", "KITTY_WINDOW_ID": ""], ["KITTY_WINDOW_ID": ""]] {
            let other = try run("kitty", env)
            #expect(!other.out.contains("a=f,") && !other.out.contains("a=a,"), "\(env)")
            #expect(other.out.components(separatedBy: "a=T,").count - 1 >= 60, "\(env): a new image each frame")
        }
    }

    @Test func keepsTimeWhenNotATerminal() throws {
        // animation.gif: 4 frames of 500 ms.
        let r = try CLI.run(["play", Fixtures.path("gif-suite/animation.gif"), "--stats", "--width", "4", "--height", "2"])
        let s = try stats(r.stderr)
        #expect(s["framesShown"] as? Int == 4)
        // Loose bounds: the suite runs encoders on both cores meanwhile.
        // Exact timing is tested on a manual clock (PlayerTimingTests) and
        // measured by Tools/bench/play.
        let mean = try #require(s["meanIntervalMs"] as? Double)
        #expect(abs(mean - 500) < 20, "mean interval \(mean) ms")
        #expect((s["stdevIntervalMs"] as? Double ?? 99) < 15)
    }

    @Test func theDemoIsBuiltIn() throws {
        let r = try CLI.run(["play", "--no-wait", "--stats", "--width", "20", "--height", "8"])
        #expect(r.status == 0)
        #expect(try stats(r.stderr)["framesShown"] as? Int == 30)
    }

    @Test func aClosedOutputEndsWith141() throws {
        let out = Pipe()
        let p = try Process.launch(
            CLI.binary, ["play", "--no-wait", "--loops", "0", "--width", "40", "--height", "12"], output: out, errors: Pipe())
        _ = out.fileHandleForReading.readData(ofLength: 1000)
        try out.fileHandleForReading.close()
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 141)
    }

    @Test func badOptionsAreUsageErrors() throws {
        for args in [
            ["play", "--colors", "16"], ["play", "--background", "plaid"], ["play", "--speed", "0"],
            ["play", "--tolerance", "17"], ["play", "--tolerance", "-1"],
        ] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
        }
    }
}
