import AnimTestSupport
import Testing

@testable import AnimKit

/// A palette of at most 16 entries (index 0, transparent black, counted)
/// is written with 1, 2 or 4 bits a pixel: a still always, an animation on
/// a canvas of 64×64 or more, with every frame's rectangle from the top
/// left corner (ffmpeg 5.1 unpacks sub-frames there); smaller animations,
/// and palettes that outgrow the depth, are written again at 8 bits. Each
/// file decodes exactly, and its PLTE and tRNS fit the depth.
struct APNGPaletteDepthTests {
    /// 37×9 frames (rows of an odd width, so the last byte of each packed
    /// row is partly padding), frame `f` drawing stripes of `colours(f)`
    /// colours.
    static func frames(_ count: Int, width w: Int = 37, height h: Int = 9, colours: (Int) -> Int) -> [RGBAImage] {
        (0..<count).map { f in
            let n = colours(f)
            return RGBAImage.drawn(width: w, height: h) { x, y in
                // Frames after 0 change only a block away from the corner.
                let still = f > 0 && w > 37 && !((w / 2..<w / 2 + 9).contains(x) && (h / 2..<h / 2 + 7).contains(y))
                let c = (x / 3 + y + (still ? 0 : f)) % n
                // Colour 1 is transparent (index 0's entry), the others
                // opaque and not grey: a palette of `n` entries.
                return c == 1 ? (0, 0, 0, 0) : (UInt8(c * 13 % 256), UInt8(200 - c * 4), 90, 255)
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

    @Test(arguments: [(3, UInt8(2)), (6, 4), (30, 8)])
    func aLargeAnimationStaysPacked(_ colours: Int, _ depth: UInt8) throws {
        let frames = Self.frames(4, width: 67, height: 64) { _ in colours }
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = Self.layout(data)
        #expect(layout.depth == depth && layout.type == 3 && layout.plte == Self.entries(frames))
        let back = try ImageSource(data: data)
        #expect(back.frameCount == 4)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
        if depth < 8 {
            #expect(back.frames.allSatisfy { $0.rect.x == 0 && $0.rect.y == 0 }, "\(back.frames.map(\.rect))")
            #expect(back.frames[1].rect.width < 67, "a sub-frame, not the canvas")
        }
    }

    @Test func aLargeAnimationOutgrowingItsDepthGoesTo8Bits() throws {
        let frames = Self.frames(4, width: 67, height: 64) { f in f < 2 ? 5 : 20 }
        let data = try APNGDisposeChoiceTests.encode(frames)
        #expect(Self.layout(data).depth == 8)
        let back = try ImageSource(data: data)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }

    @Test(arguments: [2, 6, 30])
    func aSmallAnimationIsWrittenAt8Bits(_ colours: Int) throws {
        let frames = Self.frames(4) { _ in colours }
        let data = try APNGDisposeChoiceTests.encode(frames)
        let layout = Self.layout(data)
        #expect(layout.depth == 8 && layout.type == 3 && layout.plte == Self.entries(frames))
        let back = try ImageSource(data: data)
        #expect(back.frameCount == 4)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }

    @Test func packingPutsTheFirstPixelHigh() {
        #expect(APNGWriter.pack([1, 0, 1, 1, 0, 0, 0, 0, 1], width: 9, height: 1, depth: 1) == [0b1011_0000, 0b1000_0000])
        #expect(APNGWriter.pack([3, 2, 1, 0, 1], width: 5, height: 1, depth: 2) == [0b1110_0100, 0b0100_0000])
        #expect(APNGWriter.pack([15, 1, 2, 3, 4, 5], width: 3, height: 2, depth: 4) == [0xF1, 0x20, 0x34, 0x50])
    }
}
