import AnimTestSupport
import Foundation
import Testing

struct ExitCodeTests {
    @Test func missingFileIsExit1() throws {
        let r = try CLI.run(["info", "/nonexistent/cat.gif"])
        #expect(r.status == 1)
        #expect(r.stderr == "anim: /nonexistent/cat.gif: cannot open: No such file or directory (errno 2)\n")
        #expect(r.stdout.isEmpty)
    }

    @Test func notAnImageIsExit1() throws {
        let r = try CLI.run(["info", Fixtures.path("gif-suite/TESTS")])
        #expect(r.status == 1 && r.stderr.hasPrefix("anim: ") && r.stderr.contains("not a GIF, PNG or WebP"))
    }

    /// Issue 26: a usage error is one line naming the problem and where
    /// the help is (it printed the whole usage, 63-71 lines, before).
    @Test func usageErrorsAreOneLineAndExit2() throws {
        let cases: [([String], String)] = [
            (["info"], "anim info: missing operands (see 'anim info --help')\n"),
            (["frobnicate"], "anim: unknown command 'frobnicate' (see 'anim --help')\n"),
            (["info", "--bogus", "x.gif"], "anim info: unknown option --bogus (see 'anim info --help')\n"),
            (["info", "--jso", "x.gif"], "anim info: unknown option --jso (did you mean --json?) (see 'anim info --help')\n"),
            (
                ["bench", "--runs", "zero", "x"],
                "anim bench: --runs needs a whole number ≥ 1, not 'zero' (see 'anim bench --help')\n"
            ),
            (["extract", "a.gif"], "anim extract: missing an operand (see 'anim extract --help')\n"),
            (
                ["extract", Fixtures.path("gif-suite/animation.gif"), "/tmp/x", "--frames", "9"],
                "anim extract: --frames: frame 9 is past the last frame (3) (see 'anim extract --help')\n"
            ),
            (
                ["convert", "a.gif", "b.webp", "--quality", "101"],
                "anim convert: --quality needs a whole number from 0 to 100, not '101' (see 'anim convert --help')\n"
            ),
            (["info", "-x", "a.gif"], "anim info: unknown option -x (see 'anim info --help')\n"),
        ]
        for (args, expected) in cases {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args): status \(r.status)")
            #expect(r.stderr == expected, "\(args)")
        }
        let bare = try CLI.run([])
        #expect(bare.status == 2 && bare.stderr.hasPrefix("usage: anim COMMAND"))
    }

    @Test func helpIsExit0AndDescribesEveryOption() throws {
        let top = try CLI.run(["--help"])
        #expect(top.status == 0 && top.stdout.contains("info") && top.stdout.contains("extract") && top.stdout.contains("bench"))
        let options = ["info": ["--json", "--raw-delays"], "extract": ["--frames"], "bench": ["--runs", "--json"]]
        for (command, names) in options {
            let r = try CLI.run([command, "--help"])
            #expect(r.status == 0)
            for name in names { #expect(r.stdout.contains(name), "\(command) --help lacks \(name)") }
        }
    }
}
