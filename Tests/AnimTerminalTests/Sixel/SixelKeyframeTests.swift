import AnimKit
import Testing

@testable import AnimTerminal

/// When the sixel backend sends a new keyframe: every image redraws
/// what changed since the last one, so a long run of small changes is
/// cut when that redrawing has cost as much as a keyframe (`SixelBackend`).
struct SixelKeyframeTests {
    typealias F = SixelFixtures
    typealias T = SixelBackendTests

    @Test func aSpriteOverADetailedBackgroundGetsAKeyframeNowAndThen() {
        // 200 colours in small blocks (exact), a 12×12 square moving 4
        // pixels a frame for 40 frames: the pixels it has changed stay far
        // below half the frame, the old rule's only reason for a keyframe.
        let background = F.blocks(160, 120, palette: F.colors(200, seed: 8), seed: 6)
        let p = F.placement(160, 120)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 16, rows: 6)
        var keyframeSizes: [Int] = []
        var layerSizes: [Int] = []
        for i in 0..<40 {
            var frame = background
            F.fill(&frame, Rect(x: 4 * i % 148, y: 40 + (i / 37) * 20, width: 12, height: 12), (255, 255, 255))
            F.fill(&frame, Rect(x: 4 * i % 148 + 3, y: 43 + (i / 37) * 20, width: 6, height: 6), (0, 0, 0))
            let bytes = T.show(frame, i, backend, &screen, p)
            #expect(T.region(screen, p) == F.expected(frame), "frame \(i)")
            // A keyframe starts with the two blank guard images.
            let guards = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\"1;1;1;1?").count - 1
            if guards == 2 { keyframeSizes.append(bytes.count) } else { layerSizes.append(bytes.count) }
        }
        // The first frame and then some, not every frame.
        #expect(keyframeSizes.count >= 3 && keyframeSizes.count <= 12, "\(keyframeSizes.count) keyframes")
        // What the images after a keyframe cost never reaches a keyframe.
        #expect(layerSizes.allSatisfy { $0 < keyframeSizes[0] }, "\(layerSizes) against \(keyframeSizes)")
        let total = keyframeSizes.reduce(0, +) + layerSizes.reduce(0, +)
        // Here keyframes save little (the top cell row, which every image
        // redraws, is most of an image): 199,511 bytes, against 192,947
        // with the old rule alone. On the sprite clips and the public files
        // the rule saves a third or more (Tools/bench/graphics).
        #expect(total < 205_000, "\(total) bytes for 40 frames")
    }

    /// The frames above, below a blank cell row: the images that may be
    /// dropped start in that row, so none redraws the picture's top row
    /// (a quarter of this picture), the blank row stays blank, and the
    /// screen is right after every frame.
    @Test func aBlankRowAboveSparesTheTopRow() {
        let background = F.blocks(160, 120, palette: F.colors(200, seed: 8), seed: 6)
        var totals: [Int] = []
        for blank in [0, 1] {
            let p = F.placement(160, 120, row: 2, blankRowsAbove: blank)
            let backend = SixelBackend(background: .none)
            var screen = SixelDecoder(columns: 16, rows: 7)
            var total = 0
            for i in 0..<40 {
                var frame = background
                F.fill(&frame, Rect(x: 4 * i % 148, y: 40 + (i / 37) * 20, width: 12, height: 12), (255, 255, 255))
                F.fill(&frame, Rect(x: 4 * i % 148 + 3, y: 43 + (i / 37) * 20, width: 6, height: 6), (0, 0, 0))
                let bytes = T.show(frame, i, backend, &screen, p)
                total += bytes.count
                #expect(T.region(screen, p) == F.expected(frame), "blank \(blank), frame \(i)")
                #expect(screen.region(row: 1, column: 1, width: 160, height: 20).allSatisfy { $0 == 0 })
                // Every image starts at the blank row, or at the top row without one.
                let text = String(decoding: bytes, as: UTF8.self)
                let rows = text.matches(of: /\x{1B}\[(\d+);\d+H\x{1B}P/).map { Int($0.1)! }
                if i > 0, !text.contains("\"1;1;1;1?") { #expect(rows == [2 - blank], "frame \(i): \(rows)") }
            }
            totals.append(total)
        }
        // Without the top row the images after a keyframe cost a fraction.
        #expect(totals[1] * 2 < totals[0], "\(totals[1]) bytes with a blank row, \(totals[0]) without")
    }
}
