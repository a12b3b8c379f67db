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

    @Test func usageErrorsAreExit2WithUsage() throws {
        for args in [
            [], ["info"], ["frobnicate"], ["info", "--bogus", "x.gif"], ["bench", "--runs", "zero", "x"],
            ["extract", "a.gif"], ["extract", Fixtures.path("gif-suite/animation.gif"), "/tmp/x", "--frames", "9"],
        ] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args): status \(r.status)")
            #expect(r.stderr.contains("usage: anim"), "\(args): no usage in \(r.stderr)")
        }
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
