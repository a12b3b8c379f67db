import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// The GIF writer's size rules learnt from gifsicle (issue 28), each on
/// frames where it decides: the structure it leads to is asserted, and the
/// file decodes back to the frames given in anim, Pillow and ffmpeg.
struct GIFSizeRuleTests {
    /// A `width` × `height` frame, pixel i of colour `color(i)` (RGB, opaque).
    static func frame(_ width: Int, _ height: Int, _ color: (Int) -> UInt32) -> RGBAImage {
        RGBAImage(
            width: width, height: height,
            trusting: (0..<(width * height)).flatMap { i -> [UInt8] in
                let c = color(i)
                return [UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF), 255]
            })
    }

    /// Written as GIF to GIF writes: the frames scanned first (the codec's
    /// prepare), exact colours.
    static func encode(_ frames: [RGBAImage]) throws -> (data: [UInt8], parsed: GIFParser.Result) {
        var options = EncodingOptions()
        options.prescan = try GIFGlobalTable.of(count: frames.count, limit: 255) { frames[$0] }
        options.exactColors = true
        let data = try ImageDestination.encode(frames, as: .gif, options: options, duration: .milliseconds(100))
        let parsed = try data.withUnsafeBytes { try GIFParser(bytes: $0, file: "t", limits: DecodingLimits()).parse() }
        return (data, parsed)
    }

    /// anim, Pillow and ffmpeg all show `frames`.
    static func decodedExactly(_ data: [UInt8], _ frames: [RGBAImage]) throws {
        let wrong = try OtherDecoders.mismatches(data, frames)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    static let red: UInt32 = 0xE0_2020, blue: UInt32 = 0x2020_E0, green: UInt32 = 0x20_C020

    /// Two colours: a transparent entry would double the table (6 bytes),
    /// so there is none; frame 0 of an opaque animation names no
    /// transparent index, and frame 1 names the colour it does not use.
    @Test func aTableOfTwoColoursKeepsNoTransparentEntry() throws {
        let first = Self.frame(6, 6) { i in (i % 6 + i / 6) % 2 == 0 ? Self.red : Self.blue }
        // An L of blue in a 3×3 square; its one red pixel stays as it was.
        let second = Self.frame(6, 6) { i in
            let (x, y) = (i % 6, i / 6)
            return (1...3).contains(x) && (1...3).contains(y) && (x, y) != (2, 2) ? Self.blue : first.pixel(i)
        }
        let (data, parsed) = try Self.encode([first, second])
        #expect(parsed.headerLength == 13 + 3 * 2, "a global table of 2 entries")
        #expect(parsed.images.count == 2)
        #expect(parsed.images[0].transparentIndex == nil)
        #expect(parsed.images[1].transparentIndex != nil && parsed.images[1].transparentIndex! < 2)
        try Self.decodedExactly(data, [first, second])
    }

    /// Three colours in a table of four: a frame drawing all three over
    /// unchanged pixels names the padding entry (3) for transparency.
    @Test func aFrameUsingEveryColourBorrowsThePadding() throws {
        let colors = [Self.red, Self.blue, Self.green]
        let first = Self.frame(8, 8) { i in colors[i % 3] }
        let second = Self.frame(8, 8) { i in
            let (x, y) = (i % 8, i / 8)
            guard (2...5).contains(x) && (2...5).contains(y) && (x, y) != (3, 3) else { return first.pixel(i) }
            return colors[(i + 1) % 3]
        }
        let (data, parsed) = try Self.encode([first, second])
        #expect(parsed.headerLength == 13 + 3 * 4, "a global table of 4 entries")
        #expect(parsed.images.map(\.palette.offset) == [13, 13], "no local table")
        #expect(parsed.images[1].transparentIndex == 3)
        try Self.decodedExactly(data, [first, second])
    }

    /// Four colours filling a table of four, and a later frame that uses
    /// them all but changes every pixel of its rectangle: it needs no
    /// transparency, so the table keeps no entry for it (8 entries before).
    @Test func aFrameChangingItsWholeRectangleNeedsNoTransparentEntry() throws {
        let colors = [Self.red, Self.blue, Self.green, 0x80_8080]
        let first = Self.frame(8, 8) { i in colors[i % 4] }
        let second = Self.frame(8, 8) { i in
            let (x, y) = (i % 8, i / 8)
            return (2...5).contains(x) && (2...5).contains(y) ? colors[(i + 1) % 4] : first.pixel(i)
        }
        let (data, parsed) = try Self.encode([first, second])
        #expect(parsed.headerLength == 13 + 3 * 4, "a global table of 4 entries")
        #expect(parsed.images.map(\.palette.offset) == [13, 13], "no local table")
        #expect(parsed.images[1].transparentIndex == nil)
        try Self.decodedExactly(data, [first, second])
    }

    /// 256 colours in all, 200 in frame 0 and 56 new ones in frame 1: one
    /// global table of 256 with no transparent entry, frame 1 borrowing
    /// one it does not use; no local table (with an entry kept, 255
    /// colours would fit and one frame would need a local table).
    @Test func twoHundredFiftySixColoursShareOneFullTable() throws {
        let color = { (i: Int) -> UInt32 in UInt32(i) << 16 | UInt32(255 - i) << 8 | UInt32(i * 7 % 256) }
        let first = Self.frame(16, 16) { i in color(i % 200) }
        let second = Self.frame(16, 16) { i in
            let (x, y) = (i % 16, i / 16)
            return (4..<12).contains(x) && (4..<12).contains(y) && (x, y) != (11, 11) ? color(200 + i % 56) : color(i % 200)
        }
        var choice = GlobalTableChoice(limit: 255)
        for f in [first, second] { choice.add(f) }
        let plan = choice.plan(frames: 2)
        #expect(
            plan.colors?.count == 256 && !plan.transparentEntry && plan.opaque,
            "\(plan.colors?.count ?? -1) \(plan.transparentEntry) \(plan.opaque) \(choice.sets.map { $0?.count ?? -1 })")
        let (data, parsed) = try Self.encode([first, second])
        #expect(parsed.headerLength == 13 + 3 * 256)
        #expect(parsed.images.map(\.palette.offset) == [13, 13], "no local table")
        #expect(parsed.images[1].transparentIndex != nil)
        try Self.decodedExactly(data, [first, second])
    }

    /// A frame whose 256 changed colours leave no entry for transparency
    /// but whose rectangle holds only those: drawn whole, one image (before,
    /// split into two images, the first of no delay, which browsers show
    /// for 100 ms).
    @Test func aFrameOf256ChangedColoursIsDrawnWhole() throws {
        let color = { (i: Int) -> UInt32 in UInt32(i % 256) << 16 | UInt32(i % 256 / 2) << 8 | 77 }
        let first = Self.frame(17, 16) { i in color(i) }
        // Every pixel moves on to the next colour but pixel 8, which keeps
        // its own: 256 changed colours, one unchanged pixel among them.
        let second = Self.frame(17, 16) { i in i == 8 ? color(i) : color(i + 1) }
        let (data, parsed) = try Self.encode([first, second])
        #expect(parsed.images.count == 2, "one image a frame")
        #expect(parsed.images[1].transparentIndex == nil)
        try Self.decodedExactly(data, [first, second])
    }

    /// A large frame of 40 colours, then 20 small ones redrawing 4 others:
    /// ordered as gifsicle orders (each frame counts alike), the 4 come
    /// first and the small frames code with 3-bit indices; ordered by the
    /// bytes each frame would save, they would come after the 40 (6 bits).
    @Test func manySmallFramesGetTheFirstEntries() throws {
        var seed: UInt32 = 7
        let big = Self.frame(64, 64) { _ in
            seed = seed &* 1_103_515_245 &+ 12345
            let k = (seed >> 16) % 40
            return 0x40_0000 | k << 8 | k * 5
        }
        let small: [UInt32] = [0x01_0203, 0x04_0506, 0x07_0809, 0x0A_0B0C]
        var frames = [big]
        for f in 0..<20 {
            var next = frames.last!
            for i in [0, 1, 64, 65] {
                let c = small[(f + i) % 4]
                next.pixels.replaceSubrange(
                    (4 * i)..<(4 * i + 4), with: [UInt8(c >> 16), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF), 255])
            }
            frames.append(next)
        }
        let (data, parsed) = try Self.encode(frames)
        let codeSizes = parsed.images.dropFirst().map { Int(data[$0.dataOffset]) }
        #expect(codeSizes.allSatisfy { $0 <= 3 }, "\(codeSizes)")
        try Self.decodedExactly(data, frames)
    }
}

extension RGBAImage {
    /// Pixel `i` as `0xRRGGBB`.
    fileprivate func pixel(_ i: Int) -> UInt32 {
        UInt32(pixels[4 * i]) << 16 | UInt32(pixels[4 * i + 1]) << 8 | UInt32(pixels[4 * i + 2])
    }
}
