import AnimTestSupport
import Testing

@testable import AnimKit

/// The APNG writer chooses each frame's disposal as apngasm does: NONE,
/// BACKGROUND (the rectangle cleared) or PREVIOUS (the canvas put back),
/// whichever leaves the next frame least to send; every choice decodes to
/// exactly the frames given.
struct APNGDisposeChoiceTests {
    /// A 96×64 canvas, transparent, with a soft-edged disc (several
    /// hundred RGBA colours, so RGBA mode) moving right by 20 pixels a frame.
    static func movingDisc(_ count: Int) -> [RGBAImage] {
        (0..<count).map { f in
            RGBAImage.drawn(width: 96, height: 64) { x, y in
                let dx = Double(x - (12 + f * 20))
                let dy = Double(y - 32)
                let r = (dx * dx + dy * dy).squareRoot()
                guard r < 12 else { return (0, 0, 0, 0) }
                return (UInt8(x * 2), UInt8(y * 3), UInt8(f * 30), UInt8(max(0, min(255, (12 - r) * 60))))
            }
        }
    }

    static func encode(_ frames: [RGBAImage], effort: Int = 5) throws -> [UInt8] {
        var o = EncodingOptions()
        o.effort = effort
        return try ImageDestination.encode(frames, as: .apng, options: o, duration: .milliseconds(40))
    }

    @Test func aMovingTranslucentSpriteIsClearedNotResent() throws {
        let frames = Self.movingDisc(4)
        let data = try Self.encode(frames)
        let back = try ImageSource(data: data)
        #expect(data[25] == 6, "colour type 6: RGBA")
        // Without clearing, each frame must send the old disc's place too
        // (SOURCE over both discs); cleared, only the new disc.
        #expect(back.frames.dropLast().allSatisfy { $0.dispose == .background }, "\(back.frames.map(\.dispose))")
        #expect(back.frames.dropFirst().allSatisfy { $0.rect.width <= 24 }, "\(back.frames.map(\.rect))")
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
        let noSearch = try Self.encode(frames, effort: 2)
        #expect(try ImageSource(data: noSearch).frames.allSatisfy { $0.dispose == .none })
        #expect(data.count < noSearch.count, "\(data.count) against \(noSearch.count) with NONE only")
    }

    @Test func aPassingOverlayIsUndoneByPrevious() throws {
        // Frame 1 covers most of the canvas with a noisy panel; frame 2 is
        // frame 0 with one pixel changed: from frame 1 nearly everything
        // changes, from frame 0 (PREVIOUS) one pixel.
        let base = APNGColorKeyTests.frames(1)[0]
        var panel = base
        var seed: UInt32 = 7
        for y in 4..<44 {
            for x in 4..<60 {
                seed = seed &* 1_103_515_245 &+ 12345
                panel.pixels[(y * 64 + x) * 4] = UInt8(seed >> 24)
            }
        }
        var last = base
        last.pixels[(10 * 64 + 10) * 4 + 1] = 0
        let frames = [base, panel, last]
        let data = try Self.encode(frames)
        let back = try ImageSource(data: data)
        #expect(back.frames.map(\.dispose) == [.none, .previous, .none])
        #expect(back.frames[2].rect == Rect(x: 10, y: 10, width: 1, height: 1))
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }

    @Test func opaqueFramesAreNeverCleared() throws {
        let frames = APNGColorKeyTests.frames(6)
        let back = try ImageSource(data: try Self.encode(frames))
        #expect(!back.frames.contains { $0.dispose == .background })
        for i in 0..<frames.count { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }
}
