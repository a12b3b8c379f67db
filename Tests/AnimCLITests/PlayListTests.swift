import AnimTestSupport
import Foundation
import Testing

/// `anim play FILE…` in a pseudo-terminal: files in order, `n` and `p`,
/// `q`, titles, a file that cannot be read, and the grid's usage errors.
@Suite(.serialized) struct PlayListTests {
    var mixed: String { Fixtures.path("extra/mixed.gif") }
    var demo: String { Repository.demo }
    var webp: String { Repository.path("Animations/demo.webp") }

    /// Runs `args` in a 60×20 pty, `keys` typed one by one once `waits`
    /// shows (each after the previous one's text appeared); the JSON lines
    /// of `--stats` and the exit status.
    func run(_ args: [String], steps: [(wait: String, key: String)]) throws -> (lines: [[String: Any]], status: Int32) {
        let pty = try PseudoTerminal(columns: 60, rows: 20)
        let before = try pty.sttyG()
        let err = Pipe()
        let (p, slave) = try pty.launch(CLI.binary, args, environment: ["COLORTERM": "truecolor"], errors: err)
        defer { try? slave.close() }
        var seen = 0
        for step in steps {
            // The text must appear after what the previous step saw.
            let end = Date().addingTimeInterval(20)
            while Date() < end {
                let text = pty.text
                if let r = text.range(
                    of: step.wait, range: text.index(text.startIndex, offsetBy: min(seen, text.count))..<text.endIndex)
                {
                    seen = text.distance(from: text.startIndex, to: r.upperBound)
                    break
                }
                usleep(20_000)
            }
            usleep(100_000)
            pty.type(step.key)
        }
        #expect(p.exits(within: 20))
        #expect(try pty.sttyG() == before)
        let data = err.fileHandleForReading.readDataToEndOfFile()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (lines, p.terminationStatus)
    }

    @Test func nextPreviousAndQuit() throws {
        // Titles name the file on screen: n → demo.gif, p → mixed.gif again,
        // n, n → demo.webp, q.
        let r = try run(
            ["play", mixed, demo, webp, "--title", "--loops", "0", "--stats"],
            steps: [("mixed.gif", "n"), ("demo.gif", "p"), ("mixed.gif", "n"), ("demo.gif", "n"), ("demo.webp", "q")])
        #expect(r.status == 0)
        #expect(r.lines.compactMap { $0["file"] as? String } == ["mixed.gif", "demo.gif", "mixed.gif", "demo.gif", "demo.webp"])
        #expect(r.lines.compactMap { $0["outcome"] as? String } == ["next", "previous", "next", "next", "quit"])
        #expect(r.lines.allSatisfy { ($0["framesShown"] as? Int ?? 0) >= 1 })
    }

    @Test func eachFilePlaysItsLoopsThenTheNext() throws {
        // --loops 1: every file ends by itself, in order; a file that cannot
        // be read is skipped and said at the end (exit 1).
        let missing = "/nonexistent/anim-\(getpid()).gif"
        let r = try run(["play", mixed, missing, demo, "--loops", "1", "--speed", "8", "--stats"], steps: [])
        #expect(r.status == 1)
        #expect(r.lines.compactMap { $0["file"] as? String } == ["mixed.gif", "demo.gif"])
        #expect(r.lines.compactMap { $0["outcome"] as? String } == ["finished", "finished"])
        // Every frame of each, shown or (on a busy machine, at 8× speed)
        // dropped as late: 5 and 30.
        #expect(r.lines.map { ($0["framesShown"] as? Int ?? 0) + ($0["framesDropped"] as? Int ?? 0) } == [5, 30])
    }

    @Test func gridPagesWithNAndP() throws {
        // Three files in a 2×1 grid: two pages.
        let r = try run(
            ["play", mixed, demo, webp, "--grid", "2x1", "--title", "--loops", "0", "--stats"],
            steps: [("demo.gif", "n"), ("demo.webp", "p"), ("mixed.gif", "q")])
        #expect(r.status == 0)
        #expect(
            r.lines.compactMap { $0["file"] as? String } == ["mixed.gif", "demo.gif", "demo.webp", "mixed.gif", "demo.gif"])
        #expect(r.lines.compactMap { $0["outcome"] as? String } == ["next", "next", "previous", "quit", "quit"])
    }

    @Test(arguments: [["--grid", "0x2"], ["--grid", "2x17"], ["--grid", "x"], ["--frame", "0"], ["-"]])
    func badListOptionsAreUsageErrors(args: [String]) throws {
        let r = try CLI.run(["play", mixed, demo] + args)
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(args[0] == "-" ? "standard input" : args[0]), "\(r.stderr)")
    }
}
