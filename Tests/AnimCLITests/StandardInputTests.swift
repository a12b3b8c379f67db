import AnimKit
import AnimTestSupport
import Foundation
import Testing

struct StandardInputTests {
    func data(_ fixture: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture))) }

    @Test(arguments: ["extra/long.gif", "apng-suite/025.png", "webp/mixed-lossy-lossless.webp"])
    func infoFromStdinMatchesTheFile(_ fixture: String) throws {
        let fromFile = try CLI.run(["info", "--json", Fixtures.path(fixture)])
        let fromPipe = try CLI.run(["info", "--json", "-"], stdin: try data(fixture))
        #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
        // The same object but for the file's name ("-" from the pipe).
        let named = "{\"file\": \"\(Fixtures.path(fixture))\""
        #expect(fromFile.stdout.hasPrefix(named))
        #expect(fromPipe.stdout == "{\"file\": \"-\"" + fromFile.stdout.dropFirst(named.count))
    }

    @Test func extractFromStdinWritesTheSameFrames() throws {
        let dir = TempDirectory.make()
        let r = try CLI.run(["extract", "-", dir.path, "--max-size", "20"], stdin: try data("webp/lossless-anim-alpha.webp"))
        #expect(r.status == 0, "\(r.stderr)")
        var options = DecodingOptions()
        options.maxPixelSize = 20
        let source = try ImageSource(path: Fixtures.path("webp/lossless-anim-alpha.webp"), options: options)
        for i in 0..<source.frameCount {
            let png = try ImageSource(path: dir.appendingPathComponent(String(format: "frame-%05d.png", i)).path)
            #expect(try png.frame(at: 0) == source.frame(at: i))
        }
    }

    @Test func truncatedStdinWritesCompleteFramesThenFails() throws {
        let bytes = try data("extra/long.gif")
        let dir = TempDirectory.make()
        let r = try CLI.run(["extract", "-", dir.path], stdin: bytes.prefix(bytes.count / 2))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("anim: <stdin>: frame ") && r.stderr.contains("truncated"), "\(r.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".png") }
        #expect(written.count > 10 && written.count < 120)
    }

    @Test func notAnImageOnStdin() throws {
        let r = try CLI.run(["info", "-"], stdin: Data("hello".utf8))
        #expect(r.status == 1 && r.stderr.hasPrefix("anim: <stdin>"))
    }

    /// `anim play -` starts on the first complete frame: with only half the
    /// input written, frames are already on stdout; the rest plays once it
    /// arrives, each frame decoded once.
    @Test(arguments: ["extra/long.gif", "webp/mixed-lossy-lossless.webp", "apng-suite/025.png"])
    func playFromStdinStartsBeforeTheInputEnds(_ fixture: String) throws {
        let bytes = try data(fixture)
        let frames = try ImageSource(path: Fixtures.path(fixture)).frameCount
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        let p = try Process.launch(
            CLI.binary, ["play", "-", "--no-wait", "--stats", "--width", "20", "--height", "8"], input: input, output: output,
            errors: errors)
        defer { if p.isRunning { p.terminate() } }
        input.fileHandleForWriting.write(bytes.prefix(bytes.count * 2 / 3))
        // A frame arrives while the last third of the file is still unwritten.
        let first = output.fileHandleForReading.readData(ofLength: 8)
        #expect(String(decoding: first, as: UTF8.self) == "\u{1B}[?2026h", "no frame before the input ended")
        input.fileHandleForWriting.write(bytes.suffix(from: bytes.count * 2 / 3))
        try input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(err)")
        let all = String(decoding: first + rest, as: UTF8.self)
        #expect(all.components(separatedBy: "\u{1B}[?2026h").count - 1 == frames, "every frame once")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(err.utf8)) as? [String: Any])
        #expect(stats["framesShown"] as? Int == frames)
        #expect(stats["decodedFrames"] as? Int == frames, "frames decoded again after the stream grew")
    }

    @Test func playFromATruncatedStdinPlaysWhatArrivedThenFails() throws {
        let bytes = try data("extra/long.gif")
        let r = try CLI.run(
            ["play", "-", "--no-wait", "--stats", "--width", "20", "--height", "8"], stdin: bytes.prefix(bytes.count / 2))
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let shown = try #require(stats["framesShown"] as? Int)
        #expect(shown > 10 && shown < 120)
        // The message names the frame cut short (shown as far as it arrived, or not at all).
        let named = lines.last!.split(separator: " ").dropFirst(3).first.flatMap { Int($0) }
        #expect(lines.last!.hasPrefix("anim: <stdin>: frame ") && lines.last!.contains("truncated"), "\(r.stderr)")
        #expect(named == shown || named == shown - 1, "\(r.stderr)")
    }
}
