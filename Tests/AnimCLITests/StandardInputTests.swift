import AnimKit
import Foundation
import Testing

struct StandardInputTests {
    func data(_ fixture: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: CLI.fixture(fixture))) }

    @Test(arguments: ["extra/long.gif", "apng-suite/025.png", "webp/mixed-lossy-lossless.webp"])
    func infoFromStdinMatchesTheFile(_ fixture: String) throws {
        let fromFile = try CLI.run(["info", "--json", CLI.fixture(fixture)])
        let fromPipe = try CLI.run(["info", "--json", "-"], stdin: try data(fixture))
        #expect(fromPipe.status == 0, "\(fromPipe.stderr)")
        #expect(fromPipe.stdout == fromFile.stdout)
    }

    @Test func extractFromStdinWritesTheSameFrames() throws {
        let dir = CLI.tempDir()
        let r = try CLI.run(["extract", "-", dir.path, "--max-size", "20"], stdin: try data("webp/lossless-anim-alpha.webp"))
        #expect(r.status == 0, "\(r.stderr)")
        var options = DecodingOptions()
        options.maxPixelSize = 20
        let source = try ImageSource(path: CLI.fixture("webp/lossless-anim-alpha.webp"), options: options)
        for i in 0..<source.frameCount {
            let png = try ImageSource(path: dir.appendingPathComponent(String(format: "frame-%05d.png", i)).path)
            #expect(try png.frame(at: 0) == source.frame(at: i))
        }
    }

    @Test func truncatedStdinWritesCompleteFramesThenFails() throws {
        let bytes = try data("extra/long.gif")
        let dir = CLI.tempDir()
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
}
