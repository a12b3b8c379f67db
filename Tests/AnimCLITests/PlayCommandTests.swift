import Foundation
import Testing

struct PlayCommandTests {
    func stats(_ stderr: String) throws -> [String: Any] {
        let line = try #require(stderr.split(separator: "\n").last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func notATerminalWritesEveryFrameWithStats() throws {
        let r = try CLI.run(["play", CLI.fixture("extra/long.gif"), "--no-wait", "--stats", "--loops", "2",
                             "--width", "32", "--height", "12"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try stats(r.stderr)
        #expect(Set(s.keys) == ["framesShown", "framesDropped", "bytesWritten", "firstFrameMs", "meanIntervalMs",
                                "stdevIntervalMs", "decodedFrames", "cacheHits", "peakCacheBytes"])
        #expect(s["framesShown"] as? Int == 240 && s["framesDropped"] as? Int == 0)
        #expect(s["bytesWritten"] as? Int == r.stdoutData.count)
        #expect((s["decodedFrames"] as? Int ?? 0) == 120, "the second loop comes from the cache")
        #expect(!r.stdout.contains("\u{1B}[?1049h"), "no alternate screen when not a terminal")
        #expect(r.stdout.hasPrefix("\u{1B}[?2026h"))
    }

    @Test func keepsTimeWhenNotATerminal() throws {
        // animation.gif: 4 frames of 500 ms.
        let r = try CLI.run(["play", CLI.fixture("gif-suite/animation.gif"), "--stats", "--width", "4", "--height", "2"])
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
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = ["play", "--no-wait", "--loops", "0", "--width", "40", "--height", "12"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        _ = out.fileHandleForReading.readData(ofLength: 1000)
        try out.fileHandleForReading.close()
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 141)
    }

    @Test func badOptionsAreUsageErrors() throws {
        for args in [["play", "--colors", "16"], ["play", "--background", "plaid"], ["play", "--speed", "0"],
                     ["play", "--tolerance", "17"], ["play", "--tolerance", "-1"]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
        }
    }
}
