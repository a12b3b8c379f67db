import AnimTestSupport
import Testing

@testable import AnimKit

/// A sprite drawn over a still background somewhere else in each frame:
/// each frame is restored to the background after it is shown (disposal
/// 3), so the next sends only the sprite, not the old place as well.
struct GIFRestorePreviousTests {
    /// 60×40 frames: a two-colour checked background, alone in frame 0,
    /// then with a 6×5 sprite of three colours at a place far from the last one.
    static func frames() -> [RGBAImage] {
        let places = [(-10, -10), (40, 25), (10, 28), (48, 5), (25, 15)]
        return places.map { (px, py) in
            var pixels = [UInt8](repeating: 0, count: 60 * 40 * 4)
            for y in 0..<40 {
                for x in 0..<60 {
                    let i = (y * 60 + x) * 4
                    let sprite = (px..<px + 6).contains(x) && (py..<py + 5).contains(y)
                    let c: (UInt8, UInt8, UInt8) =
                        sprite
                        ? [(250, 30, 30), (30, 250, 30), (30, 30, 250)][(x + y) % 3]
                        : (x / 4 + y / 4) % 2 == 0 ? (200, 200, 180) : (90, 90, 120)
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (c.0, c.1, c.2, 255)
                }
            }
            return RGBAImage(width: 60, height: 40, trusting: pixels)
        }
    }

    @Test func spritesAreRestoredNotRedrawn() throws {
        let frames = Self.frames()
        let back = try ImageSource(data: try ImageDestination.encode(frames, as: .gif, duration: .milliseconds(100)))
        #expect(back.frameCount == 5)
        for i in 0..<5 { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
        // Frames 1-3 are restored to the background after they show, so each
        // frame is its sprite alone.
        #expect(back.frames.map(\.dispose) == [.none, .previous, .previous, .previous, .none])
        for i in 1..<5 {
            let r = back.frames[i].rect
            #expect(r.width == 6 && r.height == 5, "frame \(i): \(r)")
        }
    }

    @Test func notWhenTheNextFrameBuildsOnThisOne() throws {
        // The sprite stays where it was drawn and another joins it: kept.
        var frames = Self.frames()
        frames[2] = frames[1]
        for y in 28..<33 {
            for x in 10..<16 {
                let i = (y * 60 + x) * 4
                frames[2].pixels.replaceSubrange(i..<(i + 4), with: [250, 30, 30, 255])
            }
        }
        let back = try ImageSource(
            data: try ImageDestination.encode(Array(frames.prefix(3)), as: .gif, duration: .milliseconds(100)))
        #expect(back.frames[1].dispose == .none)
        for i in 0..<3 { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }
}
