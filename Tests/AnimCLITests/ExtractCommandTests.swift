import AnimKit
import AnimTestSupport
import Foundation
import Testing

struct ExtractCommandTests {
    func pngs(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
    }

    @Test(arguments: ["gif-suite/dispose-restore-previous.gif", "apng-suite/016.png", "webp/non-keyframe-blend.webp"])
    func writesEveryFrameAsItShows(_ file: String) throws {
        let dir = TempDirectory.make().appendingPathComponent("out/nested")
        let r = try CLI.run(["extract", Fixtures.path(file), dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let source = try ImageSource(path: Fixtures.path(file))
        let names = pngs(dir)
        #expect(names == (0..<source.frameCount).map { String(format: "frame-%05d.png", $0) })
        for (i, name) in names.enumerated() {
            let png = try ImageSource(path: dir.appendingPathComponent(name).path)
            #expect(png.format == .png && png.width == source.width && png.height == source.height)
            #expect(try png.frame(at: 0) == source.frame(at: i), "\(file): \(name) differs from frame \(i)")
        }
    }

    /// gif-suite `images-combine.gif`: four tiles without delay are four
    /// frames (as browsers show them), the last the whole picture; with
    /// `--merge-zero-delay`, that one picture.
    @Test func zeroDelayImagesAreFramesUnlessMerged() throws {
        let each = TempDirectory.make()
        let merged = TempDirectory.make()
        #expect(try CLI.run(["extract", Fixtures.path("gif-suite/images-combine.gif"), each.path]).status == 0)
        let r = try CLI.run(["extract", "--merge-zero-delay", Fixtures.path("gif-suite/images-combine.gif"), merged.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(pngs(each).count == 4)
        #expect(pngs(merged) == ["frame-00000.png"])
        let last = try ImageSource(path: each.appendingPathComponent("frame-00003.png").path).frame(at: 0)
        let whole = try ImageSource(path: merged.appendingPathComponent("frame-00000.png").path).frame(at: 0)
        #expect(last == whole)
        let first = try ImageSource(path: each.appendingPathComponent("frame-00000.png").path).frame(at: 0)
        #expect(first != whole)
    }

    /// A Display P3 APNG: the PNGs hold the frames converted to sRGB (and
    /// no profile, so no viewer converts them again); with
    /// `--no-color-management`, the values as stored.
    @Test func framesAreConvertedToSRGBUnlessAskedNotTo() throws {
        let file = Fixtures.path("color/p3.png")
        let converted = TempDirectory.make()
        let stored = TempDirectory.make()
        #expect(try CLI.run(["extract", file, converted.path]).status == 0)
        #expect(try CLI.run(["extract", "--no-color-management", file, stored.path]).status == 0)
        var none = DecodingOptions()
        none.colorManagement = .none
        let a = try ImageSource(path: converted.appendingPathComponent("frame-00000.png").path, options: none)
        let b = try ImageSource(path: stored.appendingPathComponent("frame-00000.png").path, options: none)
        #expect(try a.frame(at: 0) == ImageSource(path: file).frame(at: 0))
        #expect(try b.frame(at: 0) == ImageSource(path: file, options: none).frame(at: 0))
        #expect(try a.frame(at: 0) != b.frame(at: 0))
        #expect(try ImageSource(path: converted.appendingPathComponent("frame-00000.png").path).colorConversion == nil)
    }

    @Test func frameRange() throws {
        let dir = TempDirectory.make()
        let r = try CLI.run(["extract", Fixtures.path("extra/long.gif"), dir.path, "--frames", "10-12"])
        #expect(r.status == 0)
        #expect(pngs(dir) == ["frame-00010.png", "frame-00011.png", "frame-00012.png"])
    }

    /// Frames asked for past where a damaged file ends: those it has are
    /// written, then the damage is the error (exit 1, not a usage error:
    /// the fault sweep cut a 4-frame WebP asked for 0-3).
    @Test func aRangePastTheDamageWritesWhatThereIs() throws {
        let (path, out) = try cutWebP()
        let r = try CLI.run(["extract", path.path, out.path, "--frames", "1-3,9"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("anim: \(path.path): frame 3") && r.stderr.contains("truncated"), "\(r.stderr)")
        #expect(pngs(out) == ["frame-00001.png", "frame-00002.png"])
        // A whole file still refuses the same range as a usage error.
        let whole = try CLI.run(["extract", Fixtures.path("webp/lossless-anim-alpha.webp"), out.path, "--frames", "1-9"])
        #expect(whole.status == 2 && whole.stderr.contains("past the last frame"))
    }

    /// A 4-frame WebP without its last 40 bytes (frame 3 cut short), and
    /// a folder name beside it for the frames.
    func cutWebP() throws -> (file: URL, frames: URL) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("webp/lossless-anim-alpha.webp")))
        let dir = TempDirectory.make()
        let path = dir.appendingPathComponent("cut.webp")
        try bytes.prefix(bytes.count - 40).write(to: path)
        return (path, dir.appendingPathComponent("frames"))
    }

    @Test func truncatedFileWritesCompleteFramesThenFails() throws {
        let (path, out) = try cutWebP()
        let r = try CLI.run(["extract", path.path, out.path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("anim: \(path.path): frame 3") && r.stderr.contains("truncated"), "\(r.stderr)")
        #expect(pngs(out) == ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
    }
}
