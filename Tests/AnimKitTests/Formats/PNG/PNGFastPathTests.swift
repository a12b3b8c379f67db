import AnimTestSupport
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
    @Test(arguments: [
        "f00n2c08", "f01n2c08", "f02n2c08", "f03n2c08", "f04n2c08", "f99n0g04", "basn3p01", "basn0g02",
        "basn4a08", "basn6a08", "tbrn2c08", "tbbn0g04", "tp1n3p08", "basn3p04",
    ])
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

/// A palette index past the end of PLTE: opaque black on both paths
/// (libpng's expansion; its end-of-image check is off), not an error.
struct PNGPaletteIndexTests {
    @Test func anIndexPastThePaletteIsOpaqueBlack() throws {
        // 3×1, 8-bit palette of two colours (red, green), tRNS for the
        // first; the pixels are indices 0, 1, 5.
        let idat = [UInt8](arrayLiteral: 0, 1, 5).withUnsafeBytes {
            PNGBridge.deflate(pixels: $0, width: 3, height: 1, channels: 1, level: 6, search: false, filter: 0)!
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        PNGChunk.append(.IHDR, [0, 0, 0, 3, 0, 0, 0, 1, 8, 3, 0, 0, 0], to: &png)
        PNGChunk.append(.PLTE, [255, 0, 0, 0, 255, 0], to: &png)
        PNGChunk.append(.tRNS, [128], to: &png)
        PNGChunk.append(.IDAT, idat, to: &png)
        PNGChunk.append(.IEND, [], to: &png)
        let count = FuzzChecks.pngPaths(png)
        #expect(count.differences == [])
        #expect(count.fast == 1)
        let frame = try ImageSource(data: png).frame(at: 0)
        #expect(frame.pixels == [255, 0, 0, 128, 0, 255, 0, 255, 0, 0, 0, 255])
    }
}

/// Damage around the zlib stream, each read the same way on both paths.
struct PNGStreamEdgeTests {
    static func png(idat: [UInt8]) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        PNGChunk.append(.IHDR, [0, 0, 0, 4, 0, 0, 0, 2, 8, 6, 0, 0, 0], to: &png)
        PNGChunk.append(.IDAT, idat, to: &png)
        PNGChunk.append(.IEND, [], to: &png)
        return png
    }

    static let rows: [UInt8] = (0..<32).map { UInt8($0 * 7) }

    static var stream: [UInt8] {
        rows.withUnsafeBytes {
            PNGBridge.deflate(pixels: $0, width: 4, height: 2, channels: 4, level: 6, search: false, filter: 4)!
        }
    }

    /// Damage after the last row's data: the image shows whole, as in
    /// browsers (libpng alone stops with an error, before the last row
    /// when bytes follow the stream).
    @Test func bytesAfterTheStream() throws {
        let png = Self.png(idat: Self.stream + [1, 2, 3, 4, 5])
        let count = FuzzChecks.pngPaths(png)
        #expect(count.differences == [])
        #expect(count.fast == 1)
        #expect(try ImageSource(data: png).frame(at: 0).pixels == Self.unfiltered)
    }

    /// The rows as the encoder was given them.
    static let unfiltered: [UInt8] = rows

    @Test func aWrongChecksum() {
        var s = Self.stream
        s[s.count - 1] ^= 0xFF
        let count = FuzzChecks.pngPaths(Self.png(idat: s))
        #expect(count.differences == [])
        #expect(count.fast == 1)  // Adler-32 is not checked on either path
    }

    /// A checksum cut (1 or 4 bytes): the image shows whole; data cut
    /// (the last 12 bytes): libpng's error on both paths.
    @Test(arguments: [1, 4, 12])
    func aStreamCutShort(cut: Int) throws {
        let s = Self.stream
        let png = Self.png(idat: Array(s.prefix(s.count - cut)))
        let count = FuzzChecks.pngPaths(png)
        #expect(count.differences == [])
        #expect(count.fast == (cut <= 4 ? 1 : 0))
        let frame = Result { try ImageSource(data: png).frame(at: 0) }
        if cut <= 4 {
            #expect(try frame.get().pixels == Self.unfiltered)
        } else {
            #expect(throws: AnimError.self) { try frame.get() }
        }
    }
}

/// Rows that are all Paeth, unfiltered two at a time (`paeth_pair_px`):
/// random pixels of every width from 1 and odd and even heights, RGB and
/// RGBA, come back exactly as encoded and as libpng reads them.
struct PNGPaethPairTests {
    @Test(arguments: [3, 4])
    func paethRowsComeBackExactly(channels: Int) throws {
        var random = SystemRandomNumberGenerator()
        for (width, height) in [(1, 1), (1, 2), (1, 5), (2, 2), (3, 3), (5, 4), (7, 9), (33, 6), (64, 7)] {
            let pixels = (0..<(width * height * channels)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let idat = pixels.withUnsafeBytes {
                PNGBridge.deflate(
                    pixels: $0, width: width, height: height, channels: channels, level: 6, search: false, filter: 4)!
            }
            var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            let w = UInt32(width).bigEndianBytes
            let h = UInt32(height).bigEndianBytes
            PNGChunk.append(.IHDR, w + h + [8, channels == 4 ? 6 : 2, 0, 0, 0], to: &png)
            PNGChunk.append(.IDAT, idat, to: &png)
            PNGChunk.append(.IEND, [], to: &png)
            let count = FuzzChecks.pngPaths(png)
            #expect(count.fast == 1, "\(width)×\(height)")
            #expect(count.differences == [], "\(width)×\(height)")
            let rgba = try ImageSource(data: png).frame(at: 0).pixels
            let expected: [UInt8] =
                channels == 4
                ? pixels : (0..<(width * height)).flatMap { pixels[($0 * 3)..<($0 * 3 + 3)] + [255] }
            #expect(rgba == expected, "\(width)×\(height)")
        }
    }
}

extension UInt32 {
    fileprivate var bigEndianBytes: [UInt8] {
        [UInt8(self >> 24), UInt8((self >> 16) & 0xFF), UInt8((self >> 8) & 0xFF), UInt8(self & 0xFF)]
    }
}
