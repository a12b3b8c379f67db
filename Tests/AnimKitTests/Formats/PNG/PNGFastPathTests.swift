import Foundation
import Testing

@testable import AnimKit

/// The fast PNG path (libdeflate and anim's unfiltering, `pngfast.c`)
/// against libpng alone, frame by frame, on every PNG fixture: PngSuite
/// (every colour type, depth and filter, interlaced and the damaged x*
/// files), the APNG suites, colour, hostile and fuzz findings.
struct PNGFastPathTests {
    static let folders = ["pngsuite", "apng-suite", "apng-public", "extra", "color", "hostile", "fuzz-decode", "metadata"]

    static var files: [String] {
        folders.flatMap { folder in
            (FileManager.default.subpaths(atPath: Fixtures.url(folder).path) ?? [])
                .filter { $0.hasSuffix(".png") || !$0.contains(".") }.sorted().map { folder + "/" + $0 }
        }.filter { !Fixtures.url($0).hasDirectoryPath }
    }

    @Test func sameFramesAsLibpngOnEveryFixture() throws {
        var frames = 0
        var fast = 0
        var differences: [String] = []
        var pngs = 0
        for name in Self.files {
            guard let bytes = try? Fixtures.bytes(name), bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { continue }
            pngs += 1
            let count = FuzzChecks.pngPaths(bytes)
            frames += count.frames
            fast += count.fast
            differences += count.differences.map { "\(name): \($0)" }
        }
        #expect(differences == [])
        #expect(pngs > 250)
        // The fast path takes most frames (the others are interlaced,
        // 16-bit or damaged): a path that turned everything down would
        // compare libpng with itself.
        #expect(frames > 400)
        #expect(Double(fast) > 0.6 * Double(frames), "fast path took \(fast) of \(frames) frames")
    }

    /// PngSuite's f* files: each filter type on each row, and the
    /// non-interlaced basics of every colour type, decoded by the fast path
    /// (not handed to libpng) with libpng's pixels.
    @Test(arguments: ["f00n2c08", "f01n2c08", "f02n2c08", "f03n2c08", "f04n2c08", "f99n0g04", "basn3p01", "basn0g02",
        "basn4a08", "basn6a08", "tbrn2c08", "tbbn0g04", "tp1n3p08", "basn3p04"])
    func filterAndColourTypesTakeTheFastPath(name: String) throws {
        let count = FuzzChecks.pngPaths(try Fixtures.bytes("pngsuite/\(name).png"))
        #expect(count.frames == 1)
        #expect(count.fast == 1)
        #expect(count.differences == [])
    }

    /// Damaged data: the fast path turns it down and libpng's error, with
    /// its message, is the answer.
    @Test(arguments: ["xcsn0g01", "xd0n2c08", "xdtn0g01", "xhdn0g08", "xlfn0g04"])
    func damagedFilesFailAsWithLibpng(name: String) throws {
        let bytes = try Fixtures.bytes("pngsuite/\(name).png")
        let count = FuzzChecks.pngPaths(bytes)
        #expect(count.differences == [])
        #expect(count.fast == 0)
    }
}
