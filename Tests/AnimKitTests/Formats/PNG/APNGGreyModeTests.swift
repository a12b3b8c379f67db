import AnimTestSupport
import Testing

@testable import AnimKit

/// Grey frames are written as grey (colour type 0, with a grey tRNS key
/// for frames blended OVER) or grey and alpha (type 4), and a colour frame
/// after them widens the file to a palette or RGB; each decodes exactly.
struct APNGGreyModeTests {
    /// 64×48 grey frames: a ramp of 192 levels (level 0 unused) with a
    /// square moving at the top left and a block blinking at the bottom
    /// right (sparse changes in a wide rectangle); `alpha` gives each
    /// pixel's alpha.
    static func frames(_ count: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> [RGBAImage] {
        (0..<count).map { f in
            RGBAImage.drawn(width: 64, height: 48) { x, y in
                let square = (f + 2..<f + 5).contains(x) && (2..<5).contains(y)
                let block = f % 2 == 1 && (58..<61).contains(x) && (43..<46).contains(y)
                let v = square || block ? 255 : UInt8(1 + (x * 3 + y) % 192)
                return (v, v, v, alpha(x, y))
            }
        }
    }

    static func check(_ frames: [RGBAImage], colourType: UInt8) throws -> [UInt8] {
        let data = try APNGDisposeChoiceTests.encode(frames)
        #expect(data[25] == colourType, "colour type \(data[25])")
        let back = try ImageSource(data: data)
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
        return data
    }

    @Test func opaqueGreyIsGreyWithAKey() throws {
        let data = try Self.check(Self.frames(5), colourType: 0)
        let (types, trns) = APNGColorKeyTests.chunks(data)
        #expect(!types.contains("PLTE"))
        // Levels 1-192 and 255 are used: 223 is the farthest from them (a
        // later frame is least likely to show it).
        #expect(trns == [0, 223], "the unused level farthest from the used ones is the key")
        #expect(try ImageSource(data: data).frames.contains { $0.blend == .over })
    }

    @Test func translucentGreyIsGreyAndAlpha() throws {
        // Alpha from the position: more (grey, alpha) pairs than a palette holds.
        _ = try Self.check(Self.frames(3) { x, y in UInt8(40 + (x * 7 + y * 3) % 200) }, colourType: 4)
    }

    /// A colour frame after grey ones: a palette when the colours so far
    /// and its own fit one (193 levels and one colour), else RGB.
    @Test(arguments: [1, 100])
    func aColourFrameAfterGreyOnesWidens(_ colours: Int) throws {
        var frames = Self.frames(4)
        for i in 0..<colours { frames[2].pixels[i * 4] = UInt8(i) &+ 128 }  // not grey
        _ = try Self.check(frames, colourType: colours == 1 ? 3 : 2)
    }
}
