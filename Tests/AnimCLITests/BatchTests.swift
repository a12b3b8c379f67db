import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// Issue 26: many files in one command, for fleets' job runners.
struct BatchTests {
    /// 20 inputs, two of them damaged (not an image; cut inside the header).
    func inputs(in dir: TempDirectory) throws -> [String] {
        let demo = try Fixtures.bytes("gif-suite/animation.gif")
        var files: [String] = []
        for i in 0..<20 {
            let name = "in\(i).gif"
            let bytes: [UInt8] = i == 7 ? Array("not a gif".utf8) : i == 13 ? Array(demo.prefix(9)) : demo
            try dir.write(name, bytes)
            files.append(dir.file(name))
        }
        return files
    }

    func mtime(_ path: String) -> timespec {
        var st = stat()
        stat(path, &st)
        return st.st_mtim
    }

    @Test func convertCarriesOnPastBadFilesAndSkipsWhatIsDone() throws {
        let dir = try TempDirectory()
        let files = try inputs(in: dir)
        let out = dir.file("out")
        let r = try CLI.run(["convert"] + files + ["--out-dir", out, "--format", "webp", "--stats"])
        #expect(r.status == 1)
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written.count == 18 && !written.contains("in7.webp") && !written.contains("in13.webp"))
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 20)
        #expect(lines.filter { $0.contains("\"outcome\": \"written\"") }.count == 18)
        #expect(lines.filter { $0.contains("\"outcome\": \"failed\"") }.count == 2)
        #expect(r.stderr.contains("in7.gif") && r.stderr.contains("in13.gif"))
        // Every output shows what its input does.
        let reference = try ImageSource(path: files[0])
        let first = try ImageSource(path: out + "/in0.webp")
        #expect(first.frameCount == reference.frameCount)
        #expect(try first.frame(at: 1).pixels == (try reference.frame(at: 1).pixels))

        let before = written.map { mtime(out + "/" + $0) }
        let again = try CLI.run(["convert"] + files + ["--out-dir", out, "--format", "webp", "--stats", "--skip-existing"])
        #expect(again.status == 1)  // the two damaged ones still fail
        let skipped = again.stderr.split(separator: "\n").filter { $0.contains("\"outcome\": \"skipped\"") }
        #expect(skipped.count == 18)
        let after = written.map { mtime(out + "/" + $0) }
        #expect(zip(before, after).allSatisfy { $0.tv_sec == $1.tv_sec && $0.tv_nsec == $1.tv_nsec })
    }

    /// A damaged input whose first frames decode: they are written, the
    /// file counts as failed, and its line says partial with the bytes out.
    @Test func aDamagedInputIsPartial() throws {
        let dir = try TempDirectory()
        let whole = try Fixtures.bytes("extra/long.gif")
        try dir.write("cut.gif", Array(whole.prefix(whole.count * 2 / 3)))
        try dir.write("whole.gif", whole)
        let r = try CLI.run(["convert", dir.file("cut.gif"), dir.file("whole.gif"), "--out-dir", dir.file("o"), "--stats"])
        #expect(r.status == 1)
        let cut = r.stderr.split(separator: "\n").first { $0.contains("\"file\": \"\(dir.file("cut.gif"))\"") } ?? ""
        #expect(cut.contains("\"outcome\": \"partial\"") && !cut.contains("\"bytesOut\": null"), "\(r.stderr)")
        let written = try ImageSource(path: dir.file("o/cut.gif")).frameCount
        let all = try ImageSource(path: dir.file("o/whole.gif")).frameCount
        #expect(written > 0 && written < all)
    }

    /// Without --format each file keeps its own format; one that cannot be
    /// read fails in its turn; two inputs that would write one output are
    /// refused before anything runs.
    @Test func ownFormatsBadFilesAndCollisions() throws {
        let dir = try TempDirectory()
        try dir.write("bad.gif", Array("not a gif".utf8))
        let r = try CLI.run([
            "convert", Repository.demo, Repository.path("Animations/demo.png"), dir.file("bad.gif"), "--out-dir",
            dir.file("o"),
        ])
        #expect(r.status == 1 && r.stderr.contains("bad.gif"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("o")).sorted() == ["demo.gif", "demo.png"])
        try dir.write("a/demo.gif", try Fixtures.bytes("gif-suite/animation.gif"))
        let clash = try CLI.run(["convert", Repository.demo, dir.file("a/demo.gif"), "--out-dir", dir.file("c")])
        #expect(clash.status == 2 && clash.stderr.contains("would both write"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("c")))
    }

    @Test func optimizeInPlaceOnEveryFile() throws {
        let dir = try TempDirectory()
        let original = try Fixtures.bytes("gif-suite/animation.gif")
        let files = try (0..<4).map { i -> String in
            try dir.write("o\(i).gif", original)
            return dir.file("o\(i).gif")
        }
        let r = try CLI.run(["optimize", "--stats"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 4)
        for f in files {
            let shown = try ImageSource(path: f)
            #expect(shown.frameCount == (try ImageSource(data: original, name: "o")).frameCount)
        }
        #expect(try CLI.run(["optimize", "-o", dir.file("x.gif")] + files).status == 2)
    }
}
