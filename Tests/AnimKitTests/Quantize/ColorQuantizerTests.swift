import Testing

@testable import AnimKit

/// The public face of the GIF writer's quantiser.
struct ColorQuantizerTests {
    static func keys(_ count: Int, distinct: Int) -> [UInt32] {
        (0..<count).map { i in
            let c = UInt32(i % distinct)
            // Distinct for every c below 2048: red tells c mod 256 apart, green then c / 256.
            return 0xFF00_0000 | (c * 37 % 256) << 16 | ((c / 256 * 29 + c * 101) % 256) << 8 | (c * 13 % 256)
        }
    }

    @Test func fewColoursAreKeptExactly() {
        let quantizer = ColorQuantizer()
        let keys = Self.keys(500, distinct: 20) + [0, 0, 0]
        keys.withUnsafeBufferPointer { quantizer.add($0) }
        #expect(quantizer.pixelCount == 500, "transparent keys are not counted")
        #expect(quantizer.distinctColors == Array(keys.prefix(20)))
        let palette = quantizer.palette(maxColors: 256)
        #expect(palette.colors == Array(keys.prefix(20)))
        #expect(palette.meanSquaredError == 0)
        let matcher = PaletteMatcher(palette.colors)
        #expect(keys.prefix(500).allSatisfy { palette.colors[matcher.index(of: $0)] == $0 })
        #expect(keys.prefix(500).allSatisfy { palette.colors[matcher.index(of: $0, hint: 3)] == $0 })
        #expect(quantizer.meanSquaredError(with: matcher) == 0)
    }

    @Test func manyColoursAreReducedToTheLimit() {
        let quantizer = ColorQuantizer(exactLimit: 1024)
        let keys = Self.keys(40_000, distinct: 2000)
        keys.withUnsafeBufferPointer { quantizer.add($0) }
        #expect(quantizer.distinctColors == nil, "2000 colours are more than 1024")
        let palette = quantizer.palette(maxColors: 64)
        #expect(palette.colors.count <= 64 && palette.colors.count > 32)
        #expect(palette.meanSquaredError > 0)
        // A palette made for the pixels fits them better than a poor one.
        let poor = PaletteMatcher([0xFF00_0000, 0xFFFF_FFFF])
        #expect(quantizer.meanSquaredError(with: PaletteMatcher(palette.colors)) < quantizer.meanSquaredError(with: poor))
        quantizer.reset()
        #expect(quantizer.pixelCount == 0 && quantizer.distinctColors == [])
    }

    @Test func aThousandColoursAreExactWithAThousandRegisters() {
        let quantizer = ColorQuantizer(exactLimit: 1024)
        var keys: [UInt32] = []
        for i in 0..<1000 { keys.append(0xFF00_0000 | UInt32(i / 40) << 16 | UInt32(i % 40) << 8 | 7) }
        keys.withUnsafeBufferPointer { quantizer.add($0) }
        let palette = quantizer.palette(maxColors: 1000)
        #expect(palette.colors == keys)
        let matcher = PaletteMatcher(palette.colors)
        #expect(keys.indices.allSatisfy { matcher.index(of: keys[$0]) == $0 }, "indices above 255 are not truncated")
    }
}
