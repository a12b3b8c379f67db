import AnimTestSupport
import Testing

@testable import AnimKit

/// A palette of at most 16 entries (index 0, transparent black, counted)
/// is written with 1, 2 or 4 bits a pixel when that deflates smaller than
/// 8 bits: an animation's rectangles then start at the top left corner
/// (ffmpeg 5.1 unpacks sub-frames there), so frames changing far from it
/// send the file again at 8 bits, as do palettes that outgrow the depth.
/// Each file decodes exactly, and its PLTE and tRNS fit the depth.
struct APNGPaletteDepthTests {
    /// Barcodes, 601×64 (an odd width: the last byte of each packed row
    /// is partly padding): each column one of `colours(f)` colours
    /// (pseudo-random; the first columns show every colour), every row of a
    /// band of `band` rows alike. A packed row's repeat is matched in 2 to
    /// 8 times fewer bytes, so frame 0 deflates smaller packed. Frames
    /// after 0 change only a 9×7 block at `block`.
    static func frames(
        _ count: Int, band: Int = 64, block: (x: Int, y: Int) = (3, 2), colours: (Int) -> Int
    ) -> [RGBAImage] {
        (0..<count).map { f in
            let n = colours(f)
            return RGBAImage.drawn(width: 601, height: 64) { x, y in
                var v = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ (y / band) &* 19_349_663)
                v ^= v >> 13
                v = v &* 0x5BD1_E995
                v ^= v >> 15
                var k = x < n ? x : Int(v % UInt32(n))
                if (block.x..<block.x + 9).contains(x) && (block.y..<block.y + 7).contains(y) { k = (k + f) % n }
                // Colour 1 is transparent (index 0's entry), the others
                // opaque and not grey: a palette of `n` entries.
                return k == 1 ? (0, 0, 0, 0) : (UInt8(k * 13 % 256), UInt8(200 - k * 4), 90, 255)
            }
        }
    }

    /// Distinct pixel values in all frames (transparent black among them).
    static func entries(_ frames: [RGBAImage]) -> Int {
        Set(frames.flatMap { f in stride(from: 0, to: f.pixels.count, by: 4).map { Array(f.pixels[$0..<($0 + 4)]) } })
            .count
    }

    /// The IHDR bit depth and colour type, the PLTE entries and tRNS length.
    static func layout(_ png: [UInt8]) -> (depth: UInt8, type: UInt8, plte: Int, trns: Int) {
        var plte = 0
        var trns = 0
        var at = 8
        while at + 12 <= png.count {
            let n = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            if type == "PLTE" { plte = n / 3 }
            if type == "tRNS" { trns = n }
            at += 12 + n
        }
        return (png[24], png[25], plte, trns)
    }

    @Test(arguments: [(2, UInt8(1)), (3, 2), (4, 2), (5, 4), (16, 4), (17, 8), (21, 8)])
    func aStillsDepthHoldsItsPalette(_ colours: Int, _ depth: UInt8) throws {
        let frames = Self.frames(1) { _ in colours }
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = Self.layout(data)
        #expect(Self.entries(frames) == colours, "the frame shows \(colours) colours")
        #expect(layout.type == 3 && layout.depth == depth, "\(colours) colours: depth \(layout.depth)")
        #expect(layout.plte == colours && layout.plte <= 1 << Int(depth), "PLTE entries")
        #expect(layout.trns <= layout.plte, "tRNS no longer than PLTE")
        #expect(try ImageSource(data: data).frame(at: 0) == frames[0])
    }

    @Test(arguments: [(3, UInt8(2)), (16, 4), (30, 8)])
    func anAnimationChangingNearTheCornerStaysPacked(_ colours: Int, _ depth: UInt8) throws {
        let frames = Self.frames(4) { _ in colours }
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = Self.layout(data)
        #expect(layout.depth == depth && layout.type == 3 && layout.plte == Self.entries(frames))
        let back = try ImageSource(data: data)
        #expect(back.frameCount == 4)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
        let wrong = try OtherDecoders.mismatches(data, frames)
        #expect(wrong.isEmpty, "Pillow and ffmpeg: \(wrong)")
        if depth < 8 {
            #expect(back.frames.allSatisfy { $0.rect.x == 0 && $0.rect.y == 0 }, "\(back.frames.map(\.rect))")
            #expect(back.frames[1].rect.width == 12, "from the corner to the block's right edge")
        }
    }

    @Test func aLargeAnimationOutgrowingItsDepthGoesTo8Bits() throws {
        let frames = Self.frames(4) { f in f < 2 ? 5 : 20 }
        let data = try APNGDisposeChoiceTests.encode(frames)
        #expect(Self.layout(data).depth == 8)
        let back = try ImageSource(data: data)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }

    /// Packed, each frame would be sent from the corner to the block, most
    /// of the canvas (a band of rows differing from the next every 8): the file is written again at 8 bits, each frame only
    /// its block.
    @Test(arguments: [2, 4, 16])
    func anAnimationChangingFarFromTheCornerGoesTo8Bits(_ colours: Int) throws {
        let frames = Self.frames(6, band: 8, block: (560, 50)) { _ in colours }
        let still = try APNGDisposeChoiceTests.encode([frames[0]])
        #expect(Self.layout(still).depth < 8, "frame 0 alone is packed")
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = Self.layout(data)
        #expect(layout.depth == 8 && layout.type == 3 && layout.plte == Self.entries(frames))
        let back = try ImageSource(data: data)
        #expect(back.frameCount == 6)
        #expect(back.frames.dropFirst().allSatisfy { $0.rect.width <= 9 && $0.rect.height <= 7 }, "\(back.frames.map(\.rect))")
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
        let wrong = try OtherDecoders.mismatches(data, frames)
        #expect(wrong.isEmpty, "Pillow and ffmpeg: \(wrong)")
    }

    @Test func packingPutsTheFirstPixelHigh() {
        #expect(APNGWriter.pack([1, 0, 1, 1, 0, 0, 0, 0, 1], width: 9, height: 1, depth: 1) == [0b1011_0000, 0b1000_0000])
        #expect(APNGWriter.pack([3, 2, 1, 0, 1], width: 5, height: 1, depth: 2) == [0b1110_0100, 0b0100_0000])
        #expect(APNGWriter.pack([15, 1, 2, 3, 4, 5], width: 3, height: 2, depth: 4) == [0xF1, 0x20, 0x34, 0x50])
    }

    /// 256 opaque colours: a palette with no transparent entry (before, the
    /// entry kept for OVER made 257, and the file RGB at three bytes a
    /// pixel), whether frame 0 has them all or a later frame completes
    /// them (the file is then written again). Decoded exactly by anim,
    /// Pillow and ffmpeg.
    @Test(arguments: [256, 200])
    func twoHundredFiftySixOpaqueColoursFillThePalette(_ first: Int) throws {
        let color = { (i: Int) -> (UInt8, UInt8, UInt8, UInt8) in (UInt8(i), UInt8(255 - i), UInt8(i * 7 % 256), 255) }
        let frames = (0..<3).map { f in
            RGBAImage.drawn(width: 16, height: 16) { x, y in
                let i = y * 16 + x
                // Frame 1 shows the colours frame 0 lacks; frame 2 moves a block.
                let block = (4..<12).contains(x) && (4..<12).contains(y)
                return color(
                    f == 0
                        ? i % first
                        : block ? (f == 1 ? (first < 256 ? first + i % (256 - first) : (i + 5) % 256) : (i + 9) % 256) : i % first
                )
            }
        }
        #expect(Self.entries(frames) == 256)
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = Self.layout(data)
        #expect(layout.type == 3 && layout.depth == 8 && layout.plte == 256 && layout.trns == 0, "\(layout)")
        let back = try ImageSource(data: data)
        #expect(back.frames.allSatisfy { $0.blend == .source }, "no transparent entry to blend OVER with")
        for (name, decoded) in [
            ("anim", try (0..<back.frameCount).map { try back.frame(at: $0) }),
            ("Pillow", try OtherDecoders.pillow(data)), ("ffmpeg", try OtherDecoders.ffmpeg(data, width: 16, height: 16)),
        ] {
            #expect(decoded.count == frames.count, "\(name)")
            for (i, (a, b)) in zip(frames, decoded).enumerated() {
                #expect(OtherDecoders.differences(a, b) == 0, "\(name): frame \(i)")
            }
        }
    }
}
