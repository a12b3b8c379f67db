import AnimKit
import Testing

@testable import AnimTerminal

/// The sixel backend at its edges: tiny and large frames, odd heights,
/// register counts, image-size limits, tmux, and the exact bytes.
struct SixelStressTests {
    typealias F = SixelFixtures
    typealias T = SixelBackendTests

    @Test func onePixel() {
        let frame = F.blocks(1, 1, palette: [(1, 2, 3)], seed: 1)
        var screen = SixelDecoder(columns: 1, rows: 1)
        let bytes = T.show(frame, 0, SixelBackend(background: .none), &screen, F.placement(1, 1))
        #expect(T.region(screen, F.placement(1, 1)) == F.expected(frame))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"1;1;1;1#0;2;0;1;1#0@\u{1B}\\"))
    }

    @Test(arguments: [1, 5, 6, 7, 11, 13, 20, 23])
    func heightsThatAreNotMultiplesOfSix(_ h: Int) {
        let frames = T.smallDiffs(17, h, count: 3)
        let p = F.placement(17, h)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 2, rows: 2)
        for (i, frame) in frames.enumerated() {
            T.show(frame, i, backend, &screen, p)
            #expect(T.region(screen, p) == F.expected(frame), "height \(h), frame \(i)")
        }
        // The keyframe: the base below the top cell row (20 pixels), then the top row.
        let keyframe = screen.pictures.prefix(h > 20 ? 2 : 1).map { [$0.width, $0.height] }
        #expect(keyframe == (h > 20 ? [[17, h - 20], [17, 20]] : [[17, h]]))
    }

    @Test func aThousandBySixHundred() {
        let p = F.placement(1000, 600)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 100, rows: 30)
        var frame = F.photo(1000, 600, seed: 5)
        let first = T.show(frame, 0, backend, &screen, p)
        #expect(F.psnr(T.region(screen, p), F.expected(frame)) >= 30)
        F.fill(&frame, Rect(x: 990, y: 590, width: 10, height: 10), (0, 255, 0))
        let bytes = T.show(frame, 1, backend, &screen, p)
        #expect(T.region(screen, p)[599 * 1000 + 999] == 0xFF00_FF00)
        // The corner, and the top cell row (1/30 of the frame, but a full
        // width of photograph in four bands), which every image draws again.
        #expect(bytes.count < first.count / 6, "a 10×10 corner cost \(bytes.count) of \(first.count) bytes")
    }

    @Test func aThousandColoursIn1024Registers() {
        let frame = F.blocks(200, 120, palette: F.colors(1000, seed: 17), seed: 3)
        let p = F.placement(200, 120)
        let distinct = Set(F.expected(frame)).count
        #expect(distinct > 900, "\(distinct) colours on the percent grid")
        var screen = SixelDecoder(columns: 20, rows: 6)
        T.show(frame, 0, SixelBackend(background: .none, registers: 1024), &screen, p)
        #expect(T.region(screen, p) == F.expected(frame), "exact with 1024 registers")
        #expect(Set(screen.pictures.flatMap { $0.definitions.values }).count == distinct)
        // With 256 only 256 registers are used, and it is no longer exact.
        var narrow = SixelDecoder(columns: 20, rows: 6)
        T.show(frame, 0, SixelBackend(background: .none, registers: 256), &narrow, p)
        #expect(narrow.pictures[0].definitions.keys.allSatisfy { $0 < 256 })
        #expect(T.region(narrow, p) != F.expected(frame))
        #expect(SixelBackend(background: .none, registers: 5000).registers == 1024)
    }

    @Test func twoRegisters() {
        let p = F.placement(30, 20)
        let two = F.blocks(30, 20, palette: [(255, 0, 0), (0, 0, 255)], seed: 2)
        let backend = SixelBackend(background: .none, registers: 2)
        var screen = SixelDecoder(columns: 3, rows: 1)
        T.show(two, 0, backend, &screen, p)
        #expect(T.region(screen, p) == F.expected(two))
        let five = F.blocks(30, 20, palette: [(255, 0, 0), (0, 0, 255), (250, 10, 0), (0, 10, 240), (240, 0, 20)], seed: 2)
        T.show(five, 1, backend, &screen, p)
        #expect(screen.images.allSatisfy { $0.definitions.keys.allSatisfy { $0 < 2 } })
        #expect(F.psnr(T.region(screen, p), F.expected(five)) > 25)
        #expect(SixelBackend(background: .none, registers: 0).registers == 2)
    }

    @Test func imagesLargerThanTheTerminalTakesAreTiled() {
        let frames = T.smallDiffs(200, 100, count: 2)
        let p = F.placement(200, 100)
        let backend = SixelBackend(background: .none, maxSize: PixelSize(width: 64, height: 64))
        var screen = SixelDecoder(columns: 20, rows: 5)
        for (i, frame) in frames.enumerated() {
            T.show(frame, i, backend, &screen, p)
            #expect(T.region(screen, p) == F.expected(frame))
        }
        #expect(screen.images.allSatisfy { $0.width <= 64 && $0.height <= 64 })
        #expect(screen.images.count >= 8, "a full frame in 60×60 tiles: \(screen.images.count) images")
    }

    @Test func aLimitBelowOneCellCrops() {
        let frame = F.blocks(50, 30, palette: F.colors(9, seed: 1), seed: 6)
        let p = F.placement(50, 30)
        var screen = SixelDecoder(columns: 5, rows: 2)
        T.show(frame, 0, SixelBackend(background: .none, maxSize: PixelSize(width: 8, height: 8)), &screen, p)
        let shown = T.region(screen, p)
        let want = F.expected(frame)
        for y in 0..<30 {
            for x in 0..<50 {
                #expect(shown[y * 50 + x] == (x < 8 && y < 8 ? want[y * 50 + x] : 0), "pixel \(x),\(y)")
            }
        }
    }

    @Test func tmuxWrapsEachImage() {
        let frames = T.smallDiffs(60, 45, count: 3)
        let p = F.placement(60, 45, row: 2, column: 2)
        let backend = SixelBackend(background: .none, maxSize: PixelSize(width: 40, height: 40), tmux: true)
        var screen = SixelDecoder(columns: 8, rows: 4)
        for (i, frame) in frames.enumerated() {
            let bytes = T.show(frame, i, backend, &screen, p)
            #expect(T.region(screen, p) == F.expected(frame))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.components(separatedBy: "\u{1B}Ptmux;").count == text.components(separatedBy: "\u{1B}\u{1B}P").count)
            #expect(!text.replacingOccurrences(of: "\u{1B}\u{1B}P", with: "").contains("\u{1B}P0;"), "an unwrapped image")
        }
    }

    @Test func theBytesOfATwoColourImage() {
        var frame = RGBAImage(width: 8, height: 7)
        F.fill(&frame, Rect(x: 0, y: 0, width: 4, height: 7), (255, 0, 0))
        F.fill(&frame, Rect(x: 4, y: 0, width: 4, height: 6), (0, 0, 255))
        let bytes = SixelBackend(background: .none).render(frame, index: 0, placement: F.placement(8, 7, row: 3, column: 4))
        // Red: four full sixels, then one more row; blue right after red in
        // the same pass (selecting a register does not move the cursor).
        // The last pixel row is transparent on the right: only red in band 2.
        // Two blank guards first (the frame is one cell row: no base).
        let guardImage = "\u{1B}[3;4H\u{1B}P0;1;0q\"1;1;1;1?\u{1B}\\"
        let want =
            "\u{1B}[0m\u{1B}[3;4H\u{1B}[1X" + guardImage + guardImage
            + "\u{1B}[3;4H\u{1B}P0;1;0q\"1;1;8;7#0;2;100;0;0#0!4~#1;2;0;0;100#1!4~-#0!4@\u{1B}\\"
        #expect(String(decoding: bytes, as: UTF8.self) == want)
    }
}
