import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// `anim extract --format …` and streams: every format decodes back to the
/// frames of `ImageSource`, pixel for pixel (by anim, and by Pillow, ffmpeg
/// and dwebp where installed); streams in order, whole, and a reader that
/// closes early.
@Suite(.serialized) struct ExtractFormatTests {
    static let files = ["webp/non-keyframe-blend.webp", "gif-suite/dispose-restore-previous.gif", "apng-suite/016.png"]

    func frames(_ file: String, maxSize: Int? = nil) throws -> [RGBAImage] {
        var o = DecodingOptions()
        if let maxSize { o.maxPixelSize = maxSize }
        let s = try ImageSource(path: Fixtures.path(file), options: o)
        return try (0..<s.frameCount).map { try s.frame(at: $0) }
    }

    /// Netpbm P7 (RGB_ALPHA) and P6 images one after another.
    static func netpbm(_ data: [UInt8]) -> [RGBAImage] {
        var out: [RGBAImage] = []
        var i = 0
        func token() -> String {
            while i < data.count, data[i] == 0x20 || data[i] == 0x0A { i += 1 }
            let start = i
            while i < data.count, data[i] != 0x20 && data[i] != 0x0A { i += 1 }
            return String(decoding: data[start..<i], as: UTF8.self)
        }
        while i < data.count {
            let magic = token()
            var w = 0
            var h = 0
            if magic == "P7" {
                while true {
                    let key = token()
                    if key == "ENDHDR" { break }
                    let value = token()
                    if key == "WIDTH" { w = Int(value)! }
                    if key == "HEIGHT" { h = Int(value)! }
                }
                i += 1
                out.append(RGBAImage(width: w, height: h, trusting: Array(data[i..<(i + w * h * 4)])))
                i += w * h * 4
            } else if magic == "P6" {
                w = Int(token())!
                h = Int(token())!
                _ = token()
                i += 1
                var px = [UInt8]()
                for p in 0..<(w * h) { px += data[(i + p * 3)..<(i + p * 3 + 3)] + [255] }
                out.append(RGBAImage(width: w, height: h, trusting: px))
                i += w * h * 3
            } else {
                break
            }
        }
        return out
    }

    /// The colours with alpha dropped, as PPM keeps them.
    static func opaque(_ image: RGBAImage) -> RGBAImage {
        var p = image.pixels
        for k in stride(from: 3, to: p.count, by: 4) { p[k] = 255 }
        return RGBAImage(width: image.width, height: image.height, trusting: p)
    }

    @Test(arguments: files)
    func everyFormatIntoAFolderDecodesBack(_ file: String) throws {
        let want = try frames(file)
        for format in ["png", "webp", "pam", "ppm", "rgba"] {
            for color in format == "png" ? ["rgba", "auto"] : [nil] {
                let dir = TempDirectory.make()
                let r = try CLI.run(
                    ["extract", Fixtures.path(file), dir.path, "--format", format] + (color.map { ["--color", $0] } ?? []))
                #expect(r.status == 0, "\(file) \(format): \(r.stderr)")
                let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
                #expect(names == want.indices.map { String(format: "frame-%05d.%@", $0, format) }, "\(format)")
                for (i, name) in names.enumerated() {
                    let data = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
                    let got: RGBAImage
                    switch format {
                    case "pam", "ppm": got = try #require(Self.netpbm(data).first)
                    case "rgba": got = RGBAImage(width: want[i].width, height: want[i].height, trusting: data)
                    default: got = try ImageSource(data: data).frame(at: 0)
                    }
                    let expected = format == "ppm" ? Self.opaque(want[i]) : want[i]
                    #expect(got == expected, "\(file) \(format) \(color ?? "") frame \(i)")
                }
            }
        }
    }

    /// Pillow, ffmpeg and dwebp read what anim writes as anim reads it.
    @Test func otherDecodersReadTheFiles() throws {
        let file = "webp/non-keyframe-blend.webp"
        let want = try frames(file)
        let dir = TempDirectory.make()
        for (format, color) in [("png", "rgba"), ("png", "auto"), ("webp", nil)] as [(String, String?)] {
            let sub = dir.appendingPathComponent("\(format)-\(color ?? "")").path
            let r = try CLI.run(
                ["extract", Fixtures.path(file), sub, "--format", format] + (color.map { ["--color", $0] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
            // Pillow: RGBA bytes of each file, compared with anim's frames.
            if FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PIL") {
                let script =
                    "import sys, glob\nfrom PIL import Image\nfor f in sorted(glob.glob(sys.argv[1] + '/*')): sys.stdout.buffer.write(Image.open(f).convert('RGBA').tobytes())"
                let expected = want.flatMap(\.pixels)
                let bytes = try Self.run("/usr/bin/python3", ["-c", script, sub])
                #expect(bytes == expected, "Pillow reads \(format) \(color ?? "") otherwise")
            }
            if format == "webp", FileManager.default.fileExists(atPath: "/usr/bin/dwebp") {
                let pam = dir.appendingPathComponent("d.pam").path
                _ = try Self.run("/usr/bin/dwebp", ["-pam", sub + "/frame-00002.webp", "-o", pam])
                let back = Self.netpbm([UInt8](try Data(contentsOf: URL(fileURLWithPath: pam))))
                #expect(back.first == want[2], "dwebp reads frame 2 otherwise")
            }
        }
    }

    static func run(_ tool: String, _ args: [String]) throws -> [UInt8] { [UInt8](try Command.run(tool, args).output) }

    /// OUTDIR -: the frames in order, whole, nothing else; --frames and
    /// --max-size apply.
    @Test(arguments: ["rgba", "pam", "ppm", "png"])
    func streamsInOrder(_ format: String) throws {
        let file = "gif-suite/dispose-restore-previous.gif"
        for (extra, maxSize) in [([String](), nil as Int?), (["--frames", "1-2", "--max-size", "5"], 5)] {
            var want = try frames(file, maxSize: maxSize)
            if maxSize != nil { want = Array(want[1...2]) }
            let r = try CLI.run(["extract", Fixtures.path(file), "-", "--format", format] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let data = [UInt8](r.stdoutData)
            switch format {
            case "rgba":
                #expect(data.count == want.reduce(0) { $0 + $1.pixels.count })
                #expect(data == want.flatMap(\.pixels))
            case "pam": #expect(Self.netpbm(data) == want)
            case "ppm": #expect(Self.netpbm(data) == want.map(Self.opaque))
            default:
                // PNG files one after another: each IEND ends one.
                let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
                var pngs: [[UInt8]] = []
                var start = 0
                for i in 0..<(max(data.count - 7, 0)) where Array(data[i..<(i + 8)]) == iend {
                    pngs.append(Array(data[start..<(i + 8)]))
                    start = i + 8
                }
                #expect(try pngs.map { try ImageSource(data: $0).frame(at: 0) } == want)
            }
        }
    }

    /// ffmpeg reads the raw stream with the size and rate anim reports.
    @Test func ffmpegReadsTheRawStream() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/ffmpeg") else { return }
        let file = "webp/non-keyframe-blend.webp"
        let want = try frames(file)
        let dir = TempDirectory.make()
        let raw = dir.appendingPathComponent("f.rgba").path
        let r = try CLI.run(["extract", Fixtures.path(file), "-", "--format", "rgba"])
        try r.stdoutData.write(to: URL(fileURLWithPath: raw))
        let out = dir.appendingPathComponent("back.rgba").path
        _ = try Self.run(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(want[0].width)x\(want[0].height)", "-i", raw,
                "-f", "rawvideo", "-pix_fmt", "rgba", out,
            ])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == want.flatMap(\.pixels))
    }

    /// A reader that closes early: the command ends quietly with 141, not
    /// a crash, having written no more than the pipe took. The stream is
    /// far larger than the pipe anim widens to 1 MiB (chi.gif: 9.5 MB of
    /// RGBA): demo.webp's 737 KB could all fit in the pipe before the
    /// reader closed, and anim then rightly exited 0 (a third of runs).
    @Test func aReaderThatClosesEarly() throws {
        let (out, err) = (Pipe(), Pipe())
        let p = try Process.launch(
            CLI.binary, ["extract", Fixtures.path("gif-public/chi.gif"), "-", "--format", "rgba"], output: out, errors: err)
        let first = out.fileHandleForReading.readData(ofLength: 1000)
        try out.fileHandleForReading.close()
        p.waitUntilExit()
        #expect(first.count == 1000)
        #expect(p.terminationReason == .exit && p.terminationStatus == 141, "\(p.terminationReason) \(p.terminationStatus)")
        #expect(err.fileHandleForReading.readDataToEndOfFile().isEmpty, "quiet")
    }

    @Test func namesDurationsAndStats() throws {
        let dir = TempDirectory.make()
        let durations = dir.appendingPathComponent("t.txt").path
        let file = Fixtures.path("extra/mixed.gif")
        let r = try CLI.run(
            [
                "extract", file, dir.appendingPathComponent("f").path, "--name", "img%03d.png", "--durations", durations,
                "--frames", "1-3", "--stats",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("f").path).sorted()
                == ["img001.png", "img002.png", "img003.png"])
        // mixed.gif: 100, 200, 50, 80, 100 ms.
        #expect(try String(contentsOfFile: durations, encoding: .utf8) == "1 100 200\n2 300 50\n3 350 80\n")
        let stats = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("{") })
        #expect(stats.contains("\"frames\": 3"))
    }

    @Test(arguments: [
        ["--format", "tiff"], ["--color", "auto", "--format", "pam"], ["--name", "x.png"], ["--name", "a/%d.png"],
        ["--name", "%d%d.png"], ["--color", "grey"],
    ])
    func badOptionsAreUsageErrors(_ args: [String]) throws {
        let dir = TempDirectory.make().appendingPathComponent("never")
        let r = try CLI.run(["extract", Fixtures.path("extra/mixed.gif"), dir.path] + args)
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path), "nothing written")
    }
}
