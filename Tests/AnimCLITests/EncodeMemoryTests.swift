import AnimKit
import AnimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `anim encode` streams: peak memory does not grow with the frame count.
@Suite(.serialized) struct EncodeMemoryTests {
    /// Peak RSS (KiB) of `anim args… --stats`, as the process reports it.
    func peakRSS(_ args: [String]) throws -> (status: Int32, kib: Int) {
        let r = try CLI.run(args + ["--stats"])
        let line = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let stats = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (r.status, try #require(stats?["peakRSSBytes"] as? Int) / 1024)
    }

    /// The frame folders, made once for the three formats.
    static let folders: (few: URL, many: URL) = { (try! frames(100), try! frames(1000)) }()

    /// A folder of `count` 160×120 frames, each different (a bar moves).
    static func frames(_ count: Int) throws -> URL {
        let dir = TempDirectory.make()
        for t in 0..<count {
            let image = RGBAImage.drawn(width: 160, height: 120) { x, y in (UInt8(x), UInt8(y * 2), x == t % 160 ? 255 : 40, 255)
            }
            try PNGFile.write(image, to: dir.appendingPathComponent("f\(t).png").path)
        }
        return dir
    }

    /// Not under a sanitizer (Tools/sanitizers/test.sh sets ANIM_SANITIZER):
    /// its allocator's caches and shadow memory grow with the work done.
    @Test(
        .disabled(if: ProcessInfo.processInfo.environment["ANIM_SANITIZER"] != nil, "peak memory under a sanitizer"),
        arguments: ["png", "gif", "webp"])
    func memoryDoesNotGrowWithFrames(_ ext: String) throws {
        let few = Self.folders.few
        let many = Self.folders.many
        let a = try peakRSS(["encode", few.path, few.appendingPathComponent("out.\(ext)").path])
        let b = try peakRSS(["encode", many.path, many.appendingPathComponent("out.\(ext)").path])
        #expect(a.status == 0 && b.status == 0)
        // Ten times the frames: at most 25% (+2 MiB) more memory. WebP keeps
        // the encoded frames until the end (WebPAnimEncoder): compressed
        // data only, a few KiB a frame here.
        let slack = ext == "webp" ? 1.5 : 1.25
        #expect(Double(b.kib) <= Double(a.kib) * slack + 2048, "\(ext): 100 frames \(a.kib) KiB, 1000 frames \(b.kib) KiB")
    }

    /// SIGTERM (or Ctrl-C) in the middle of an encode: exit 143 and no
    /// temporary file left.
    @Test func anInterruptedEncodeLeavesNothing() throws {
        let many = Self.folders.many
        let outDir = TempDirectory.make()
        let p = try Process.launch(
            CLI.binary, ["encode", many.path, outDir.appendingPathComponent("out.png").path], errors: FileHandle.nullDevice)
        let end = Date().addingTimeInterval(20)
        var sawTemporary = false
        while p.isRunning && Date() < end {
            if (try? FileManager.default.contentsOfDirectory(atPath: outDir.path))?.contains(where: { $0.contains(".tmp-") })
                == true
            {
                sawTemporary = true
                break
            }
            usleep(5_000)
        }
        #expect(sawTemporary, "the encode ended before it could be interrupted")
        p.terminate()
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 143)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outDir.path).isEmpty)
    }
}
