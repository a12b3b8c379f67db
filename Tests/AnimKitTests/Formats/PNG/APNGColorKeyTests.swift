import AnimTestSupport
import Testing

@testable import AnimKit

/// Opaque frames of more than 256 colours are RGB with a `tRNS` colour key:
/// a colour no frame has, which the unchanged pixels of a frame blended
/// OVER take, so a sparse change costs little; it decodes exactly, and a
/// frame that brings the key colour makes the writer choose another.
struct APNGColorKeyTests {
    /// `count` opaque 64×48 frames of a gradient (3072 colours) with a
    /// small square moving; `extra(f)` may paint more.
    static func frames(_ count: Int, extra: (Int, inout [UInt8]) -> Void = { _, _ in }) -> [RGBAImage] {
        (0..<count).map { f in
            var px = [UInt8](repeating: 255, count: 64 * 48 * 4)
            for y in 0..<48 {
                for x in 0..<64 {
                    let i = (y * 64 + x) * 4
                    px[i] = UInt8(x * 4 + 1)
                    px[i + 1] = UInt8(y * 5 + 1)
                    px[i + 2] = UInt8((x + y) % 7 + 1)
                }
            }
            // Sparse: a square moving at the top left, a block at the bottom
            // right that blinks: the changed rectangle is mostly unchanged.
            for y in 2..<5 { for x in (2 + f)..<(5 + f) { px[(y * 64 + x) * 4 + 1] = 250 } }
            if f % 2 == 1 { for y in 43..<46 { for x in 58..<61 { px[(y * 64 + x) * 4 + 2] = 240 } } }
            extra(f, &px)
            return RGBAImage(width: 64, height: 48, trusting: px)
        }
    }

    static func encode(_ frames: [RGBAImage]) throws -> [UInt8] {
        try ImageDestination.encode(frames, as: .apng, duration: .milliseconds(50))
    }

    /// The chunk types and the tRNS body.
    static func chunks(_ png: [UInt8]) -> (types: [String], trns: [UInt8]?) {
        var types: [String] = []
        var trns: [UInt8]?
        var at = 8
        while at + 12 <= png.count {
            let n = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            types.append(type)
            if type == "tRNS" { trns = Array(png[(at + 8)..<(at + 8 + n)]) }
            at += 12 + n
        }
        return (types, trns)
    }

    @Test func sparseChangesBlendOverAColourKey() throws {
        let frames = Self.frames(8)
        let data = try Self.encode(frames)
        let (types, trns) = Self.chunks(data)
        #expect(data[25] == 2, "colour type 2: RGB")
        #expect(types.prefix(3) == ["IHDR", "acTL", "tRNS"] && trns == [0, 0, 0, 0, 0, 0], "key: black, which no frame has")
        let back = try ImageSource(data: data)
        // The rectangle of a moved square: the old place changes, most of it
        // not; OVER the key wins where its deflate is smaller.
        #expect(back.frames.contains { $0.blend == .over }, "\(back.frames.map(\.blend))")
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }

    @Test func aFrameWithTheKeyColourMakesTheWriterChooseAnother() throws {
        let frames = Self.frames(6) { f, px in
            if f == 3 {
                for i in 0..<4 {
                    px[(47 * 64 + i) * 4] = 0
                    px[(47 * 64 + i) * 4 + 1] = 0
                    px[(47 * 64 + i) * 4 + 2] = 0
                }
            }
        }
        let data = try Self.encode(frames)
        let (_, trns) = Self.chunks(data)
        #expect(trns != nil && trns != [0, 0, 0, 0, 0, 0], "black is in frame 3: another key")
        let back = try ImageSource(data: data)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }
}
