import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// `anim convert` and `anim encode` with edits: each against values
/// computed here (frame lists, durations, pixels), and bad values.
struct EditCommandTests {
    /// Eight 20×16 frames of 100 ms: frame f has red 30·f, green the
    /// column·10, blue the row·10; as a lossless APNG.
    static func source() throws -> (path: String, frames: [RGBAImage]) {
        let out = try ImageDestination(format: .apng)
        var frames: [RGBAImage] = []
        for f in 0..<8 {
            var image = RGBAImage(width: 20, height: 16)
            for y in 0..<16 {
                for x in 0..<20 {
                    let i = (y * 20 + x) * 4
                    image.pixels[i] = UInt8(30 * f)
                    image.pixels[i + 1] = UInt8(x * 10)
                    image.pixels[i + 2] = UInt8(y * 10)
                    image.pixels[i + 3] = 255
                }
            }
            frames.append(image)
            try out.add(image, duration: .milliseconds(100))
        }
        try out.finish()
        let path = TempDirectory.make().appendingPathComponent("in.png").path
        try Data(out.data!).write(to: URL(fileURLWithPath: path))
        return (path, frames)
    }

    func convert(_ args: [String]) throws -> (ImageSource, CLI.Result) {
        let (input, _) = try Self.source()
        let out = TempDirectory.make().appendingPathComponent("out.png").path
        let r = try CLI.run(["convert", input, out] + args)
        #expect(r.status == 0, "\(r.stderr)")
        return (try ImageSource(path: out), r)
    }

    func reds(_ s: ImageSource) throws -> [Int] { try (0..<s.frameCount).map { Int(try s.frame(at: $0).pixels[0]) / 30 } }
    func millis(_ s: ImageSource) -> [Int] { s.frames.map { Int($0.duration / .milliseconds(1)) } }

    @Test func framesSpeedReverseBounce() throws {
        let (a, _) = try convert(["--frames", "5-2", "--speed", "2"])
        #expect(try reds(a) == [5, 4, 3, 2])
        #expect(millis(a) == [50, 50, 50, 50])
        let (b, _) = try convert(["--reverse", "--bounce"])
        #expect(try reds(b) == [7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6])
        let (c, _) = try convert(["--frames", "0,2,4-5"])
        #expect(try reds(c) == [0, 2, 4, 5])
    }

    @Test func fpsResamplesKeepingTheLength() throws {
        // 800 ms at 5 fps: ticks of 200 ms, middles at 100, 300, 500, 700 ms.
        let (s, _) = try convert(["--fps", "5"])
        #expect(try reds(s) == [1, 3, 5, 7])
        #expect(millis(s) == [200, 200, 200, 200])
        // Faster than the frames: the same frames back.
        let (t, _) = try convert(["--fps", "50"])
        #expect(try reds(t) == Array(0..<8))
        #expect(millis(t) == Array(repeating: 100, count: 8))
    }

    @Test func cropThenResizeAveragesTheCoveredPixels() throws {
        let (_, frames) = try Self.source()
        let (s, _) = try convert(["--crop", "8x6+3+2", "--resize", "4x"])
        #expect(s.width == 4 && s.height == 3)
        let frame = try s.frame(at: 3)
        let src = frames[3]
        for y in 0..<3 {
            for x in 0..<4 {
                // Output (x, y) covers crop pixels (2x…2x+1, 2y…2y+1).
                var sum = [0, 0, 0]
                for dy in 0..<2 {
                    for dx in 0..<2 {
                        let i = ((2 + 2 * y + dy) * 20 + 3 + 2 * x + dx) * 4
                        for c in 0..<3 { sum[c] += Int(src.pixels[i + c]) }
                    }
                }
                let o = (y * 4 + x) * 4
                for c in 0..<3 {
                    #expect(abs(Int(frame.pixels[o + c]) - (sum[c] + 2) / 4) <= 1, "(\(x), \(y)) channel \(c)")
                }
            }
        }
    }

    @Test func fitAndScale() throws {
        let (a, _) = try convert(["--fit", "10x10"])
        #expect(a.width == 10 && a.height == 8)
        let (b, _) = try convert(["--scale", "0.25"])
        #expect(b.width == 5 && b.height == 4)
        let (c, _) = try convert(["--resize", "x4", "--format", "webp", "--lossless"])
        #expect(c.width == 5 && c.height == 4)
    }

    @Test(arguments: [
        ["--crop", "30x5+0+0"], ["--crop", "5x5+18+0"], ["--crop", "0x5+0+0"], ["--crop", "5x5"],
        ["--frames", "3-9"], ["--frames", "x"], ["--resize", "0x4"], ["--resize", "x"], ["--fit", "10"],
        ["--scale", "-1"], ["--scale", "0"], ["--speed", "0"], ["--speed", "fast"], ["--fps", "0"],
        ["--resize", "4x4", "--fit", "4x4"],
    ])
    func badValuesAreUsageErrorsAndWriteNothing(args: [String]) throws {
        let (input, _) = try Self.source()
        let out = TempDirectory.make().appendingPathComponent("out.gif").path
        let r = try CLI.run(["convert", input, out] + args)
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(args[0]) || r.stderr.contains("size") || r.stderr.contains("give one of"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func encodeTakesTheSameEdits() throws {
        let (_, frames) = try Self.source()
        let dir = TempDirectory.make()
        for (i, f) in frames.enumerated() {
            try PNGFile.write(f, to: dir.appendingPathComponent("f\(i).png").path)
        }
        let out = dir.appendingPathComponent("out.png").path
        let r = try CLI.run(["encode", dir.path, out, "--fps", "20", "--frames", "6-", "--bounce", "--scale", "0.5"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try ImageSource(path: out)
        #expect(s.width == 10 && s.height == 8)
        #expect(try reds(s) == [6, 7])  // two frames: a bounce of two is the two
        #expect(millis(s) == [50, 50])
    }
}

/// `--max-bytes`: the output fits and says what it chose; a size nothing
/// reaches fails with nothing written.
struct MaxBytesCommandTests {
    @Test(arguments: ["demo.gif", "demo.webp", "demo.png"])
    func sampleAnimationsFitAndSayHow(name: String) throws {
        let input = Repository.path("Animations/\(name)")
        let dir = TempDirectory.make()
        let ext = name.split(separator: ".").last!
        let plain = dir.appendingPathComponent("plain.\(ext)").path
        #expect(try CLI.run(["convert", input, plain]).status == 0)
        let full = try FileManager.default.attributesOfItem(atPath: plain)[.size] as! Int
        let limit = full / 2
        let out = dir.appendingPathComponent("small.\(ext)").path
        let r = try CLI.run(["convert", input, out, "--max-bytes", "\(limit)"])
        #expect(r.status == 0, "\(r.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as! Int
        #expect(size <= limit && size > 0)
        #expect(r.stderr.contains("\(size) bytes (--max-bytes \(limit)) with "))
        let source = try ImageSource(path: out)
        #expect(source.frameCount >= 1 && source.indexError == nil)
    }

    /// `--stats`: every setting tried with its size, the one chosen (the
    /// smallest step that fit), and the bytes written; the output is what
    /// a plain `convert` with that setting writes.
    @Test func statsListTheAttempts() throws {
        let input = Repository.demo
        let dir = TempDirectory.make()
        let out = dir.appendingPathComponent("small.webp").path
        let r = try CLI.run(["convert", input, out, "--max-bytes", "6000", "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("{") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let attempts = try #require(json["attempts"] as? [[String: Any]])
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as! Int
        #expect(json["bytesWritten"] as? Int == size && size <= 6000)
        let chosen = try #require(json["chosen"] as? String)
        #expect(attempts.contains { $0["setting"] as? String == chosen && $0["bytes"] as? Int == size })
        #expect(attempts.count >= 2 && attempts.count <= 6, "a binary search over 20 steps: \(attempts.count)")
        // One progress line per attempt on stderr, as they were tried.
        #expect(r.stderr.components(separatedBy: "anim: --max-bytes 6000: ").count - 1 == attempts.count)
        if chosen.hasPrefix("--quality "), !chosen.contains(" ", after: 10) {
            let plain = dir.appendingPathComponent("plain.webp").path
            let q = String(chosen.dropFirst("--quality ".count))
            #expect(try CLI.run(["convert", input, plain, "--quality", q]).status == 0)
            #expect(FileManager.default.contents(atPath: plain) == FileManager.default.contents(atPath: out))
        }
    }

    @Test func aSizeNothingReachesFails() throws {
        let dir = TempDirectory.make()
        let out = dir.appendingPathComponent("out.webp").path
        let r = try CLI.run(["convert", Repository.demo, out, "--max-bytes", "100"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("even the smallest setting"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(
            try CLI.run(["convert", Repository.demo, out, "--max-bytes", "0"]).status
                == 2)
    }
}

extension String {
    /// Whether `character` occurs after the first `offset` characters.
    fileprivate func contains(_ character: Character, after offset: Int) -> Bool { dropFirst(offset).contains(character) }
}

struct SizeLadderTests {
    @Test func searchFindsTheFirstThatFitsAskingFew() throws {
        let sizes = [900, 800, 700, 600, 500, 400, 300, 200, 100]
        var asked: [Int] = []
        let found = SizeLadder.search(count: sizes.count, limit: 450) {
            asked.append($0)
            return sizes[$0]
        }
        #expect(found == 5)
        #expect(asked.count <= 5)
        #expect(SizeLadder.search(count: sizes.count, limit: 50) { sizes[$0] } == nil)
        #expect(SizeLadder.search(count: sizes.count, limit: 1000) { sizes[$0] } == 0)
    }

    @Test func laddersGoInTheDocumentedOrder() {
        let gif = SizeLadder.settings(format: .gif, options: EncodingOptions())
        #expect(gif.first!.lossy == 0 && gif.first!.scale == 1)
        #expect(gif.map(\.lossy).prefix(6) == [0, 20, 40, 80, 120, 200])
        #expect(gif.map(\.maxColors)[6...9] == [128, 64, 32, 16])
        #expect(gif.last!.scale == 0.125 && gif.last!.rate == 0.5)
        var lossless = EncodingOptions()
        lossless.lossless = true
        let webp = SizeLadder.settings(format: .webp, options: lossless)
        #expect(webp[1].lossless == false && webp[1].quality == 90)
        let apng = SizeLadder.settings(format: .apng, options: EncodingOptions())
        #expect(apng.count == 1 + 2 + 12)
    }
}
