import AnimTestSupport
import Foundation
import Testing

/// Issue 27: a 37-byte GIF that declares 11000x11000 passed every limit
/// (convert took 18 s and 3 GB); its 50-frame version went past 3.8 GB in
/// extract. A canvas out of all proportion to the file's bytes is refused
/// before anything is allocated, naming the option that allows it.
struct BombTests {
    /// GIF89a, an 11000x11000 screen, `frames` images of the whole screen
    /// with a clear code and an end code each.
    func bomb(frames: Int) -> [UInt8] {
        func le(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var b = Array("GIF89a".utf8) + le(11000) + le(11000) + [0, 0, 0]
        if frames > 1 { b += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] }
        for _ in 0..<frames {
            b += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            b += [0x2C] + le(0) + le(0) + le(11000) + le(11000) + [0, 2, 2, 0x4C, 1, 0]
        }
        return b + [0x3B]
    }

    @Test(arguments: [1, 50])
    func bombsAreRefusedAtOnce(_ frames: Int) throws {
        let dir = try TempDirectory()
        try dir.write("bomb.gif", bomb(frames: frames))
        let file = dir.file("bomb.gif")
        for args in [
            ["info", file], ["extract", file, dir.file("x")], ["convert", file, dir.file("x.webp")],
            ["play", "--frame", "0", file],
        ] {
            let r = try CLI.run(args, environment: ["ANIM_REPORT_PEAK_RSS": "1"])
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr.contains("\(file): maxPixelsPerByte"), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("(raise it with --max-pixels-per-byte N)"))
            let rss =
                r.stderr.split(separator: "\n").first { $0.hasPrefix("peak RSS: ") }
                .flatMap { Int($0.split(separator: " ")[2]) } ?? Int.max
            // Nothing canvas-sized (484 MB) was allocated.
            if ProcessInfo.processInfo.environment["ANIM_SANITIZER"] == nil { #expect(rss < 64 << 20, "\(args): \(rss)") }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.webp")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("x")))
        // Raised, the single frame reads (and only then allocates).
        let allowed = try CLI.run(["info", "--max-pixels-per-byte", "100000000", file])
        #expect(allowed.status == 0 && allowed.stdout.contains("11000x11000"))
    }
}
