import AnimKit
import AnimTestSupport
import Foundation
import Testing

@testable import anim

struct EncodeCommandTests {
    /// Writes `count` frames (a square moving over a gradient) as PNGs named
    /// frame1.png … frameN.png (so that plain sorting would misorder them).
    func frameFolder(_ count: Int, width: Int = 40, height: Int = 30) throws -> (URL, [RGBAImage]) {
        let dir = TempDirectory.make()
        var frames: [RGBAImage] = []
        for t in 0..<count {
            let image = RGBAImage.drawn(width: width, height: height) { x, y in
                x >= t * 3 && x < t * 3 + 6 && y >= 10 && y < 16
                    ? (255, 0, 0, 255) : (UInt8(x * 6), UInt8(y * 8), UInt8(t * 20), 255)
            }
            frames.append(image)
            try PNGFile.write(image, to: dir.appendingPathComponent("frame\(t + 1).png").path)
        }
        return (dir, frames)
    }

    @Test func encodeAPNGInNaturalOrder() throws {
        let (dir, frames) = try frameFolder(12)
        let out = dir.appendingPathComponent("out.apng").path
        let r = try CLI.run(["encode", dir.path, out, "--fps", "25", "--loop", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let source = try ImageSource(path: out)
        #expect(source.frameCount == 12)
        #expect(source.plays == .count(2))
        #expect(source.frames.allSatisfy { $0.duration == .milliseconds(40) })
        for i in 0..<12 { #expect(try source.frame(at: i) == frames[i], "frame \(i): frame10 must come after frame9") }
    }

    /// Frames may be any file anim reads (its first frame): here a PNG, a
    /// GIF and a WebP of the same size, in natural order.
    @Test func framesOfAnyReadableFormat() throws {
        let (dir, frames) = try frameFolder(3)
        // frame2 becomes a GIF and frame3 a WebP (lossless) of the same pixels.
        for (i, ext) in [(1, "gif"), (2, "webp")] {
            let src = dir.appendingPathComponent("frame\(i + 1).png").path
            let dst = dir.appendingPathComponent("frame\(i + 1).\(ext)").path
            let r = try CLI.run(["convert", src, dst] + (ext == "webp" ? ["--lossless"] : []))
            #expect(r.status == 0, "\(r.stderr)")
            try FileManager.default.removeItem(atPath: src)
        }
        let out = TempDirectory.make().appendingPathComponent("out.webp").path
        let r = try CLI.run(["encode", dir.path, out, "--lossless"])
        #expect(r.status == 0, "\(r.stderr)")
        let source = try ImageSource(path: out)
        #expect(source.frameCount == 3)
        #expect(try source.frame(at: 0) == frames[0])
        #expect(try source.frame(at: 2) == frames[2], "the WebP frame is lossless")
        let gifFrame = try ImageSource(path: dir.appendingPathComponent("frame2.gif").path).frame(at: 0)
        #expect(try source.frame(at: 1) == gifFrame, "the GIF frame as anim reads it")
    }

    @Test func convertKeepsDurationsAndLoops() throws {
        let input = Fixtures.path("gif-suite/animation-speed.gif")
        let out = TempDirectory.make().appendingPathComponent("speed.png").path
        let r = try CLI.run(["convert", input, out])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try ImageSource(path: input)
        let b = try ImageSource(path: out)
        #expect(b.format == .apng)
        #expect(b.frames.map(\.duration) == a.frames.map(\.duration))
        #expect(b.plays == a.plays)
        for i in 0..<a.frameCount { #expect(try b.frame(at: i) == a.frame(at: i)) }
    }

    @Test func convertKeepsMetadataUnlessStripped() throws {
        let input = Fixtures.path("metadata/flower2.webp")
        let dir = TempDirectory.make()
        let png = dir.appendingPathComponent("flower.png").path
        let r = try CLI.run(["convert", input, png])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(try ImageSource(path: png).metadata == ImageSource(path: input).metadata)
        let gif = dir.appendingPathComponent("flower.gif").path
        let g = try CLI.run(["convert", input, gif])
        #expect(g.status == 0 && g.stderr.contains("not kept: EXIF (6573 bytes)"), "\(g.stderr)")
        #expect(try ImageSource(path: gif).metadata.iccProfile?.count == 3144)
        let stripped = dir.appendingPathComponent("stripped.webp").path
        let s = try CLI.run(["convert", input, stripped, "--strip"])
        #expect(s.status == 0 && s.stderr.isEmpty, "\(s.stderr)")
        #expect(try ImageSource(path: stripped).metadata.isEmpty)
    }

    @Test func aFrameOfAnotherSizeNamesTheFileAndLeavesNothing() throws {
        let (dir, _) = try frameFolder(5)
        try PNGFile.write(RGBAImage(width: 41, height: 30), to: dir.appendingPathComponent("frame4.png").path)
        let out = dir.appendingPathComponent("out.png").path
        let r = try CLI.run(["encode", dir.path, out])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("frame4.png") && r.stderr.contains("41x30, not 40x30 like") && r.stderr.contains("frame1.png"),
            "\(r.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix("frame") }
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func anUnreadableFrameIsAClearErrorAndAnExistingOutputIsUntouched() throws {
        let (dir, _) = try frameFolder(4)
        try Data("not a png".utf8).write(to: dir.appendingPathComponent("frame3.png"))
        let outDir = TempDirectory.make()
        let out = outDir.appendingPathComponent("out.gif").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        let r = try CLI.run(["encode", dir.path, out, "--format", "apng"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("anim: ") && r.stderr.contains("frame3.png"), "\(r.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir.path) == ["out.gif"])
    }

    @Test func anUnwritableOutputIsAClearError() throws {
        let (dir, _) = try frameFolder(2)
        let r = try CLI.run(["encode", dir.path, "/nonexistent-folder/out.png"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/nonexistent-folder/out.png") && r.stderr.contains("cannot create"), "\(r.stderr)")
    }

    @Test func theOutputMustNotBeAnInput() throws {
        let (dir, _) = try frameFolder(3)
        let r = try CLI.run(["encode", dir.path, dir.appendingPathComponent("frame2.png").path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("also an input"), "\(r.stderr)")
        #expect(try ImageSource(path: dir.appendingPathComponent("frame2.png").path).frameCount == 1)
        let c = try CLI.run(["convert", Fixtures.path("extra/long.gif"), Fixtures.path("extra/long.gif")])
        #expect(c.status == 1 && c.stderr.contains("also an input"))
    }

    /// A GIF playing 65536 times (loop value 65535) converts to WebP, whose
    /// largest count is 65535.
    @Test func theLargestGIFLoopConvertsToWebP() throws {
        let out = TempDirectory.make().appendingPathComponent("loop.webp").path
        let r = try CLI.run(["convert", Fixtures.path("gif-suite/loop-max.gif"), out])
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// `--lossy 80` on the demo GIF: smaller than the exact conversion,
    /// with the PSNR it gave stated; not for other formats.
    @Test func lossyGIFSaysItsQuality() throws {
        let dir = TempDirectory.make()
        let input = Repository.demo
        let exact = dir.appendingPathComponent("exact.gif").path
        let lossy = dir.appendingPathComponent("lossy.gif").path
        #expect(try CLI.run(["convert", input, exact]).status == 0)
        let r = try CLI.run(["convert", input, lossy, "--lossy", "80"])
        #expect(r.status == 0 && r.stderr.contains("lossy 80: mean PSNR "), "\(r.stderr)")
        let a = try FileManager.default.attributesOfItem(atPath: lossy)[.size] as! Int
        let b = try FileManager.default.attributesOfItem(atPath: exact)[.size] as! Int
        #expect(a < b, "\(a) bytes against \(b)")
        let w = try CLI.run(["convert", input, dir.appendingPathComponent("x.webp").path, "--lossy", "80"])
        #expect(w.status == 2 && w.stderr.contains("--lossy is for GIF output"), "\(w.stderr)")
        #expect(try CLI.run(["convert", input, lossy, "--lossy", "0"]).status == 2)
    }

    @Test func usageErrors() throws {
        let (dir, _) = try frameFolder(1)
        for args in [
            ["encode", dir.path, "out.bmp"], ["encode", dir.path, "o.gif", "--colors", "1"],
            ["encode", dir.path, "o.gif", "--dither", "blue"], ["encode", dir.path, "o.gif", "--fps", "10", "--delay", "5"],
            ["encode", dir.path], ["convert", "a.gif", "b.png", "--quality", "101"],
        ] {
            #expect(try CLI.run(args).status == 2, "\(args)")
        }
    }

    @Test func naturalOrder() {
        let names = ["frame10.png", "frame2.png", "frame1.png", "a.png", "frame02.png"]
        #expect(names.sorted(by: NaturalOrder.less) == ["a.png", "frame1.png", "frame02.png", "frame2.png", "frame10.png"])
    }

    /// `--exact` keeps the colour under fully transparent pixels; without
    /// it, they come back transparent black.
    @Test func exactKeepsHiddenColours() throws {
        let dir = TempDirectory.make()
        var frames: [RGBAImage] = []
        for t in 0..<3 {
            // A hidden colour under every transparent pixel, different per frame.
            let px = (0..<(12 * 8)).flatMap { i -> [UInt8] in
                i % 12 == t ? [200, 10, 10, 255] : [UInt8(i * 2), UInt8(t * 50), 7, 0]
            }
            frames.append(RGBAImage(width: 12, height: 8, trusting: px))
            try PNGFile.write(frames[t], to: dir.appendingPathComponent("f\(t).png").path)
        }
        let plain = dir.appendingPathComponent("plain.png").path
        let exact = dir.appendingPathComponent("exact.png").path
        #expect(try CLI.run(["encode", dir.path, plain]).status == 0)
        #expect(try CLI.run(["encode", dir.path, exact, "--exact"]).status == 0)
        let a = try ImageSource(path: plain)
        let b = try ImageSource(path: exact)
        for t in 0..<3 {
            let cleared = frames[t].pixels.enumerated().map {
                $0.offset % 4 == 3 || frames[t].pixels[$0.offset | 3] != 0 ? $0.element : 0
            }
            #expect(try a.frame(at: t).pixels == cleared, "frame \(t) without --exact")
            #expect(try b.frame(at: t) == frames[t], "frame \(t) with --exact")
        }
    }
}
