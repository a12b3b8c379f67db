import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// Issue 26: the conventions of gifsicle, ffmpeg and chafa. Each test
/// failed before the options were declared once.
struct ConventionsTests {
    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func shortOptionsAndHelpAndVersion() throws {
        let v = try CLI.run(["-V"])
        #expect(v.status == 0 && v.stdout.hasPrefix("anim 2."))
        for library in ["giflib 5.", "libpng 1.6.", "libwebp 1.", "libdeflate 1.", "Little CMS 2."] {
            #expect(v.stdout.contains(library), "\(library) in \(v.stdout)")
        }
        #expect(try CLI.run(["--version"]).stdout == v.stdout)
        let help = try CLI.run(["convert", "-h"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: anim convert IN OUT"))
        #expect(try CLI.run(["help", "convert"]).stdout == help.stdout)
        // Combined flags: -q and -j, then -h among them.
        let info = try CLI.run(["info", "-qj", Repository.demo])
        #expect(info.status == 0 && info.stdout.hasPrefix("{\"file\": ") && info.stderr.isEmpty)
        #expect(try CLI.run(["info", "-jh"]).stdout == (try CLI.run(["info", "--help"])).stdout)
    }

    @Test func dashDashEndsTheOptions() throws {
        let dir = try TempDirectory()
        try dir.write("-odd.gif", Array(try bytes(Repository.demo)))
        let r = try Command.run(CLI.binary, ["info", "--json", "--", "-odd.gif"], directory: dir.url)
        #expect(r.status == 0 && r.text.hasPrefix("{\"file\": \"-odd.gif\""), "\(r.errorText)")
        let unknown = try Command.run(CLI.binary, ["info", "-odd.gif"], directory: dir.url)
        #expect(unknown.status == 2 && unknown.errorText.contains("unknown option -o"))
    }

    /// `-` writes to standard output the bytes a file gets, for every
    /// writing command and format; `-o OUT` is OUT.
    @Test(arguments: ["gif", "png", "webp"])
    func standardOutputIsTheFileByteForByte(_ ext: String) throws {
        let dir = try TempDirectory()
        let input = Repository.demo
        let file = try CLI.run(["convert", input, dir.file("a.\(ext)")])
        let piped = try CLI.run(["convert", input, "-", "--format", ext])
        let named = try CLI.run(["convert", input, "-o", dir.file("b.\(ext)")])
        #expect(file.status == 0 && piped.status == 0 && named.status == 0, "\(piped.stderr)")
        #expect(piped.stdoutData == (try bytes(dir.file("a.\(ext)"))))
        #expect(try bytes(dir.file("b.\(ext)")) == (try bytes(dir.file("a.\(ext)"))))

        let frames = try TempDirectory()
        let source = try ImageSource(path: input)
        for i in 0..<4 { try PNGFile.write(try source.frame(at: i), to: frames.file("f\(i).png")) }
        let encoded = try CLI.run(["encode", frames.path, dir.file("e.\(ext)")])
        let encodedPiped = try CLI.run(["encode", frames.path, "-", "-f", ext])
        #expect(encoded.status == 0 && encodedPiped.status == 0)
        #expect(encodedPiped.stdoutData == (try bytes(dir.file("e.\(ext)"))))

        // optimize: the smaller rewrite, or the input kept, on stdout as in OUT.
        let optimized = try CLI.run(["optimize", dir.file("a.\(ext)"), dir.file("o.\(ext)")])
        let optimizedPiped = try CLI.run(["optimize", dir.file("a.\(ext)"), "-"])
        #expect(optimized.status == 0 && optimizedPiped.status == 0, "\(optimizedPiped.stderr)")
        #expect(optimizedPiped.stdoutData == (try bytes(dir.file("o.\(ext)"))))
    }

    @Test func extractToStandardOutputIsTheFramesInOrder() throws {
        let dir = try TempDirectory()
        let r = try CLI.run(["extract", Repository.demo, dir.path, "--frames", "3,1,0-1"])
        let piped = try CLI.run(["extract", Repository.demo, "-", "--frames", "3,1,0-1"])
        #expect(r.status == 0 && piped.status == 0, "\(r.stderr)")
        var joined = Data()
        for i in [3, 1, 0, 1] { joined += try bytes(dir.file(String(format: "frame-%05d.png", i))) }
        #expect(piped.stdoutData == joined)
    }

    /// An option the output format cannot honour: exit 2, one line, nothing written.
    @Test(arguments: [
        ("gif", ["--lossless"], "--lossless is for APNG or WebP output, not GIF"),
        ("gif", ["--allow-mixed"], "--allow-mixed is for WebP output, not GIF"),
        ("gif", ["--exact"], "--exact is for APNG or WebP output, not GIF"),
        ("webp", ["--colors", "16"], "--colors is for GIF output, not WebP"),
        ("webp", ["--lossy", "40"], "--lossy is for GIF output, not WebP (WebP: --quality)"),
        ("png", ["--dither", "none"], "--dither is for GIF output, not APNG"),
        ("png", ["--allow-mixed"], "--allow-mixed is for WebP output, not APNG"),
    ])
    func optionsAFormatCannotHonourAreRefused(_ ext: String, _ option: [String], _ message: String) throws {
        let dir = try TempDirectory()
        let r = try CLI.run(["convert", Repository.demo, dir.file("out.\(ext)")] + option)
        #expect(r.status == 2)
        #expect(r.stderr == "anim convert: \(message) (see 'anim convert --help')\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.\(ext)")))
    }

    @Test func oneSpellingPerIdea() throws {
        let dir = try TempDirectory()
        // --loops everywhere (--loop still read), --frames lists in extract.
        #expect(try CLI.run(["convert", Repository.demo, dir.file("a.gif"), "--loops", "3"]).status == 0)
        #expect(try CLI.run(["convert", Repository.demo, dir.file("b.gif"), "--loop", "3"]).status == 0)
        #expect(try ImageSource(path: dir.file("a.gif")).plays == .count(3))
        #expect(try bytes(dir.file("a.gif")) == (try bytes(dir.file("b.gif"))))
        let r = try CLI.run(["extract", Repository.demo, dir.path + "/x", "--frames", "0-1,5"])
        #expect(r.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path + "/x").sorted() == [
                "frame-00000.png", "frame-00001.png", "frame-00005.png",
            ])
    }

    @Test func quietSaysNothingButErrors() throws {
        let dir = try TempDirectory()
        let loud = try CLI.run(["optimize", Repository.demo, dir.file("a.gif")])
        #expect(loud.status == 0 && !loud.stderr.isEmpty)
        let quiet = try CLI.run(["optimize", "-q", Repository.demo, dir.file("b.gif")])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
        let failing = try CLI.run(["convert", "-q", "/nonexistent.gif", dir.file("c.gif")])
        #expect(failing.status == 1 && failing.stderr.contains("/nonexistent.gif"))
    }

    @Test func infoOfSeveralFiles() throws {
        let files = [Repository.demo, Repository.path("Animations/demo.png"), "/nonexistent.gif"]
        let text = try CLI.run(["info"] + files)
        #expect(text.status == 1)
        #expect(text.stdout.components(separatedBy: ": GIF, 96x64").count == 2)
        #expect(text.stdout.contains(": APNG, 96x64") && text.stdout.contains("\n\n"))
        #expect(text.stderr.contains("/nonexistent.gif"))
        let json = try CLI.run(["info", "--json"] + files.dropLast())
        let lines = json.stdout.split(separator: "\n")
        #expect(json.status == 0 && lines.count == 2)
        #expect(lines[1].hasPrefix("{\"file\": \"\(files[1])\", \"format\": \"apng\""))
    }

    @Test func encodeIntoItsOwnFolderRunsAgain() throws {
        let dir = try TempDirectory()
        let source = try ImageSource(path: Repository.demo)
        for i in 0..<3 { try PNGFile.write(try source.frame(at: i), to: dir.file("f\(i).png")) }
        let first = try CLI.run(["encode", dir.path, dir.file("out.gif")])
        let once = try bytes(dir.file("out.gif"))
        let again = try CLI.run(["encode", dir.path, dir.file("out.gif")])
        #expect(first.status == 0 && again.status == 0, "\(again.stderr)")
        #expect(try bytes(dir.file("out.gif")) == once)
        #expect(try ImageSource(path: dir.file("out.gif")).frameCount == 3)
    }

    @Test func aLimitNamesItsOptionInAList() throws {
        let r = try CLI.run(["play", "--no-wait", "--max-canvas-pixels", "100", Repository.demo, Repository.demo])
        #expect(r.status == 1)
        #expect(r.stderr.contains("raise it with --max-canvas-pixels N") && !r.stderr.contains("DecodingLimits"), "\(r.stderr)")
    }

    @Test func aTerminalIsNotAnOutput() throws {
        let pty = try PseudoTerminal(columns: 80, rows: 24)
        let (p, _) = try pty.launch(CLI.binary, ["convert", Repository.demo, "-", "-f", "gif"])
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
        #expect(pty.wait(for: "standard output is a terminal", seconds: 5))
    }
}
