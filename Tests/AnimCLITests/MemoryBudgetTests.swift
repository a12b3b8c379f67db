import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// Issue 27, part 2: `--max-memory` bounds what every command holds for
/// pictures. A 249 KB APNG that declares 8000×8000 (a 244 MiB canvas, with
/// data to fill it) took 2–4 canvases beside what it was written to;
/// now work that does not fit is refused before anything canvas-sized is
/// allocated, naming the flag, and work that fits stays under the budget.
/// (Peak memory is the process's own VmHWM; not under a sanitizer, whose
/// shadow memory and allocator caches count too.)
@Suite(.serialized) struct MemoryBudgetTests {
    let bomb = Fixtures.path("hostile/zeros-8000.png")
    static let sanitized = ProcessInfo.processInfo.environment["ANIM_SANITIZER"] != nil

    @Test func infoSaysWhatDecodingNeeds() throws {
        let json = try CLI.run(["info", "-j", "--max-memory", "100M", bomb])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let needed = try #require(object?["decodingMemoryBytes"] as? Int)
        #expect(needed >= 2 * 8000 * 8000 * 4 && needed < 3 * 8000 * 8000 * 4)
        let text = try CLI.run(["info", "--max-memory", "100M", bomb])
        #expect(
            text.stdout.contains(
                "memory: decoding needs \(Int((Double(needed) / 1_048_576).rounded())) MiB, more than the budget of 100 MiB"))
        #expect(text.stdout.contains("raise it with --max-memory SIZE"))
    }

    @Test(arguments: [
        ["extract", "OUT/frames"], ["extract", "-f", "webp", "OUT/frames"], ["convert", "OUT/x.gif"],
        ["convert", "OUT/x.png"], ["convert", "OUT/x.webp"], ["optimize", "-o", "OUT/x.png"], ["play", "--frame", "0"],
    ])
    func overTheBudgetIsRefusedAtOnce(_ command: [String]) throws {
        let dir = try TempDirectory()
        let args = [command[0], "--max-memory", "400M", bomb] + command.dropFirst().map { $0.replacing("OUT", with: dir.path) }
        let r = try LimitTests.measured(args)
        #expect(r.status == 1, "\(args)")
        #expect(r.stderr.contains("\(bomb): its pictures need "), "\(r.stderr)")
        #expect(r.stderr.contains("more than the budget of 400 MiB (raise it with --max-memory SIZE)"))
        if !Self.sanitized { #expect(r.peak < 64 << 20, "\(args): \(r.peak)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "nothing written")
    }

    /// Raised, the same file is decoded, within the budget.
    @Test func withinTheBudgetItDecodes() throws {
        let dir = try TempDirectory()
        let play = try LimitTests.measured(["play", "--frame", "0", "--max-memory", "900M", bomb])
        #expect(play.status == 0)
        if !Self.sanitized { #expect(play.peak <= 900 << 20, "\(play.peak)") }
        let extract = try LimitTests.measured(["extract", "--max-memory", "1600M", "--frames", "1", bomb, dir.file("f")])
        #expect(extract.status == 0, "\(extract.stderr)")
        if !Self.sanitized { #expect(extract.peak <= 1600 << 20, "\(extract.peak)") }
        let frame = try ImageSource(path: dir.file("f/frame-00001.png")).frame(at: 0)
        #expect(frame.width == 8000 && Array(frame.pixels[0..<8]) == [255, 0, 0, 255, 0, 0, 0, 0])
    }

    /// Six 640×480 frames of noise (incompressible, the encoders' worst
    /// case) in an APNG.
    static func noise() throws -> String {
        var rng = FuzzRandom(state: 0x5EED)
        let frames = (0..<6).map { _ in
            RGBAImage(width: 640, height: 480, trusting: (0..<(640 * 480 * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        let dir = TempDirectory.make()
        let path = dir.appendingPathComponent("noise.png").path
        try Data(try ImageDestination.encode(frames, as: .apng, duration: .milliseconds(40))).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    /// A budget just above what one thread needs: fewer frames in flight
    /// and no decoding ahead, the same frames written, and the peak within.
    @Test func aTightBudgetGivesTheSameFramesInSmallerPieces() throws {
        let file = try Self.noise()
        let info = try CLI.run(["info", "-j", file])
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        let needed = try #require(object?["decodingMemoryBytes"] as? Int)
        // One PNG frame in flight: 16 bytes a pixel.
        let budget = needed + 640 * 480 * 16 + (1 << 20)
        let dir = try TempDirectory()
        let free = try CLI.run(["extract", file, dir.file("free")])
        let tight = try LimitTests.measured(["extract", "--max-memory", "\(budget)", file, dir.file("tight")])
        #expect(free.status == 0 && tight.status == 0, "\(tight.stderr)")
        if !Self.sanitized { #expect(tight.peak <= budget, "\(tight.peak) > \(budget)") }
        for i in 0..<6 {
            let name = String(format: "frame-%05d.png", i)
            let read = { (folder: String) in try Data(contentsOf: URL(fileURLWithPath: dir.file(folder + "/" + name))) }
            #expect(try read("free") == read("tight"))
        }
        // One byte short of a frame in flight: refused, nothing written.
        let short = try CLI.run(["extract", "--max-memory", "\(needed + 640 * 480 * 16 - 1)", file, dir.file("short")])
        #expect(short.status == 1 && short.stderr.contains("--max-memory"))
    }

    /// In a play list, a file over the budget is passed over with its
    /// message; the others play.
    @Test func aListGoesOnWithoutAFileOverTheBudget() throws {
        let r = try CLI.run(["play", "--max-memory", "100M", "--no-wait", bomb, Repository.path("Animations/demo.gif")])
        #expect(r.status == 1)
        #expect(r.stdout.count > 1000, "demo.gif was drawn")
        #expect(r.stderr.contains("\(bomb): its pictures need "))
    }

    @Test func aSizeIsRequired() throws {
        let r = try CLI.run(["info", "--max-memory", "lots", bomb])
        #expect(r.status == 2 && r.stderr.contains("--max-memory needs a size such as 64M, 1G or 4096, not 'lots'"))
        let zero = try CLI.run(["info", "--max-memory", "0K", bomb])
        #expect(zero.status == 2 && zero.stderr.contains("--max-memory needs a size above 0, not '0K'"))
    }
}
