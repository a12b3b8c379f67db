import AnimTestSupport
import Foundation
import Testing

/// Hostile inputs end to end through the CLI: tiny files declaring huge
/// canvases, more frames than allowed, frames whose data inflates far past
/// their size. Each is refused (or decoded as far as it is sound) within
/// a second and 64 MiB (the process's own peak, VmHWM), and a refusal
/// names the limit and the option that raises it.
struct LimitTests {
    /// Runs anim, returning its status, stderr, wall time and peak memory.
    static func measured(_ args: [String]) throws -> (status: Int32, stderr: String, seconds: Double, peak: Int) {
        let start = ContinuousClock.now
        let r = try CLI.run(args, environment: ["ANIM_REPORT_PEAK_RSS": "1"])
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let line = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak RSS: ") }
        let peak = line.flatMap { Int($0.dropFirst(10).split(separator: " ")[0]) } ?? Int.max
        return (r.status, r.stderr, seconds, peak)
    }

    static func hostile(_ name: String) -> String { Fixtures.path("hostile/" + name) }

    /// A GIF of `frames` images of `w`×`h` on a `width`×`height` screen,
    /// each one pixel of LZW data.
    static func gif(width: Int, height: Int, frames: Int, w: Int = 1, h: Int = 1) -> Data {
        func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var b = Array("GIF89a".utf8) + le(width) + le(height) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        let image: [UInt8] = [0x21, 0xF9, 4, 0, 10, 0, 0, 0, 0x2C] + le(0) + le(0) + le(w) + le(h) + [0, 2, 2, 0x44, 1, 0]
        b.reserveCapacity(b.count + frames * image.count + 1)
        for _ in 0..<frames { b += image }
        return Data(b + [0x3B])
    }

    static let limitMessages: [(file: String, limit: String, flag: String)] = [
        ("huge-canvas.gif", "maxCanvasPixels 4294836225", "--max-canvas-pixels"),  // 65535×65535
        ("huge-canvas.png", "maxCanvasPixels 10000000000", "--max-canvas-pixels"),  // 100000×100000
        ("huge-canvas.webp", "maxCanvasPixels 268435456", "--max-canvas-pixels"),  // 16384×16384
    ]

    @Test(arguments: limitMessages)
    func hugeCanvasesAreRefused(_ c: (file: String, limit: String, flag: String)) throws {
        for command in ["info", "extract", "play"] {
            let args =
                command == "extract"
                ? [command, Self.hostile(c.file), TempDirectory.make().path] : [command, Self.hostile(c.file)]
            let r = try Self.measured(args + (command == "play" ? ["--no-wait"] : []))
            #expect(r.status == 1, "\(command) \(c.file): \(r.stderr)")
            #expect(
                r.stderr.contains("\(c.limit) exceeds the limit of 134217728 (raise it with \(c.flag) N)"),
                "\(command) \(c.file): \(r.stderr)")
            #expect(r.seconds < 2 && r.peak < 64 << 20, "\(command) \(c.file): \(r.seconds) s, \(r.peak) bytes")
        }
    }

    /// 200,000 one-pixel frames (4.6 MB): refused at the 100,001st, in
    /// small memory; with the limit raised, indexed.
    @Test func tooManyFramesAreRefused() throws {
        let path = TempDirectory.make().appendingPathComponent("many.gif").path
        try Self.gif(width: 1, height: 1, frames: 200_000).write(to: URL(fileURLWithPath: path))
        let r = try Self.measured(["info", path])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("maxFrameCount 100001 exceeds the limit of 100000 (raise it with --max-frames N)"), "\(r.stderr)")
        #expect(r.seconds < 2 && r.peak < 64 << 20, "\(r.seconds) s, \(r.peak) bytes")
        let raised = try CLI.run(["info", path, "--max-frames", "200000"])
        #expect(raised.status == 0, "\(raised.stderr)")
        #expect(raised.stdout.hasPrefix("\(path): GIF, 1x1, 200000 frames"))
    }

    /// 3,000 frames each declaring the whole 8192×8192 screen in 70 KB:
    /// 69 GB of pixels to decode, over the 64 GiB limit.
    @Test func tooManyDecodedBytesAreRefused() throws {
        let path = TempDirectory.make().appendingPathComponent("rects.gif").path
        try Self.gif(width: 8192, height: 8192, frames: 3000, w: 8192, h: 8192).write(to: URL(fileURLWithPath: path))
        let r = try Self.measured(["info", path])
        #expect(r.status == 1)
        // Counted frame by frame while indexing: refused at the first frame over.
        #expect(
            r.stderr.contains(
                "maxDecodedBytes 68987912192 exceeds the limit of 68719476736 (raise it with --max-decoded-bytes N)"),
            "\(r.stderr)")
        #expect(r.seconds < 2 && r.peak < 64 << 20, "\(r.seconds) s, \(r.peak) bytes")
        let lowered = try Self.measured(["info", Fixtures.path("gif-suite/255-codes.gif"), "--max-decoded-bytes", "100"])
        #expect(
            lowered.status == 1 && lowered.stderr.contains("maxDecodedBytes 40000 exceeds the limit of 100"), "\(lowered.stderr)")
    }

    /// Data that inflates far past the frame: 64 MiB of zlib data behind a
    /// 1×1 PNG (the pixel shown, as Chromium shows APNG suite 060's
    /// oversized fdAT: libpng stops inflating at the first extra byte and
    /// skips the rest), 400,000 LZW codes behind a
    /// 1×1 GIF image (the pixel is decoded, the rest ignored), and an
    /// acTL announcing 4 billion frames (ignored before any allocation: the
    /// still image, with a warning, as browsers show it).
    @Test func inflationIsStoppedEarly() throws {
        let pngDir = TempDirectory.make()
        let png = try Self.measured(["extract", Self.hostile("inflate-bomb.png"), pngDir.path])
        #expect(png.status == 0, "\(png.stderr)")
        #expect(FileManager.default.fileExists(atPath: pngDir.appendingPathComponent("frame-00000.png").path))
        #expect(png.seconds < 2 && png.peak < 64 << 20, "\(png.seconds) s, \(png.peak) bytes")
        let dir = TempDirectory.make()
        let gif = try Self.measured(["extract", Self.hostile("lzw-bomb.gif"), dir.path])
        #expect(gif.status == 0, "\(gif.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("frame-00000.png").path))
        #expect(gif.seconds < 2 && gif.peak < 64 << 20, "\(gif.seconds) s, \(gif.peak) bytes")
        let actl = try Self.measured(["info", Self.hostile("huge-actl.png")])
        #expect(
            actl.status == 0 && actl.stderr.contains("warning: acTL num_frames 4294967295 is out of range"),
            "\(actl.stderr)")
        #expect(try CLI.run(["info", Self.hostile("huge-actl.png")]).stdout.contains("PNG, 1x1, 1 frame"))
        #expect(actl.peak < 64 << 20)
    }
}
