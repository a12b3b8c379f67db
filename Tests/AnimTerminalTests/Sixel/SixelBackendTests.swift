import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

/// The sixel backend, checked through `SixelDecoder`: what a terminal
/// would show after each frame, and what it cost.
struct SixelBackendTests {
    typealias F = SixelFixtures

    /// Renders `frame`, feeds the bytes to `screen` and checks them: no
    /// error, every image starting from a known cursor. Returns the bytes.
    @discardableResult
    static func show(
        _ frame: RGBAImage, _ index: Int, _ backend: SixelBackend, _ screen: inout SixelDecoder,
        _ placement: Placement
    ) -> [UInt8] {
        let bytes = backend.render(frame, index: index, placement: placement)
        screen.feed(bytes)
        #expect(screen.errors.isEmpty, "frame \(index): \(screen.errors.prefix(5))")
        #expect(screen.images.allSatisfy { $0.redundantReturns == 0 }, "frame \(index): a redundant $")
        screen.errors.removeAll()
        return bytes
    }

    static func region(_ screen: SixelDecoder, _ p: Placement) -> [UInt32] {
        screen.region(row: p.row, column: p.column, width: p.pixels.width, height: p.pixels.height)
    }

    /// Frames of ≤ 256 colours where a few small squares change each frame.
    static func smallDiffs(_ w: Int, _ h: Int, count: Int) -> [RGBAImage] {
        let palette = F.colors(200, seed: 21)
        var frame = F.blocks(w, h, palette: palette, seed: 4)
        var random = F.Random(state: 99)
        var out = [frame]
        for _ in 1..<count {
            for _ in 0..<3 {
                F.fill(
                    &frame, Rect(x: random.below(w), y: random.below(h), width: 1 + random.below(9), height: 1 + random.below(9)),
                    palette[random.below(palette.count)])
            }
            out.append(frame)
        }
        return out
    }

    @Test func smallDiffsAreExactForwardsAndBackwards() {
        let frames = Self.smallDiffs(123, 77, count: 10)
        let p = F.placement(123, 77, row: 2, column: 3)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 20, rows: 8)
        let order = Array(0..<10) + Array((0..<9).reversed())
        var sizes: [Int] = []
        for i in order {
            sizes.append(Self.show(frames[i], i, backend, &screen, p).count)
            #expect(Self.region(screen, p) == F.expected(frames[i]), "frame \(i) differs")
        }
        // The squares, the pixels changed since the keyframe and the top
        // cell row (a quarter of this picture, with its own definitions),
        // drawn again by every image (see `SixelBackend`, layers).
        #expect(sizes.dropFirst().allSatisfy { $0 > 0 && $0 * 10 < sizes[0] * 7 }, "sizes \(sizes)")
    }

    @Test func photographicFramesStayAbove30dB() {
        let frames = (0..<6).map { F.photo(160, 120, phase: Double($0) * 0.05, seed: 3) }
        let p = F.placement(160, 120)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 16, rows: 6)
        for i in Array(0..<6) + Array((0..<5).reversed()) {
            Self.show(frames[i], i, backend, &screen, p)
            let db = F.psnr(Self.region(screen, p), F.expected(frames[i]))
            #expect(db >= 30, "frame \(i): \(db) dB")
        }
    }

    @Test func invalidateSendsEverythingAgain() {
        let frames = Self.smallDiffs(64, 50, count: 3)
        let p = F.placement(64, 50)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 8, rows: 4)
        let first = Self.show(frames[0], 0, backend, &screen, p)
        Self.show(frames[1], 1, backend, &screen, p)
        backend.invalidate()
        var fresh = SixelDecoder(columns: 8, rows: 4)  // a cleared screen
        let again = Self.show(frames[1], 1, backend, &fresh, p)
        #expect(Self.region(fresh, p) == F.expected(frames[1]))
        #expect(again.count > first.count * 9 / 10, "a full frame: \(again.count) vs \(first.count)")
        Self.show(frames[2], 2, backend, &fresh, p)
        #expect(Self.region(fresh, p) == F.expected(frames[2]))
    }

    @Test func aNewPlacementErasesTheOldOne() {
        let frames = Self.smallDiffs(80, 60, count: 2)
        let small = F.blocks(45, 30, palette: F.colors(30, seed: 2), seed: 8)
        let a = F.placement(80, 60)
        let b = F.placement(45, 30, row: 3, column: 5)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 12, rows: 6)
        Self.show(frames[0], 0, backend, &screen, a)
        Self.show(small, 0, backend, &screen, b)
        #expect(Self.region(screen, b) == F.expected(small))
        // Everything outside the new picture is background again.
        var outside = screen
        for y in 40..<70 { for x in 40..<85 { outside.pixels[y * outside.width + x] = 0 } }
        #expect(outside.pixels.allSatisfy { $0 == 0 }, "the old picture is left outside the new one")
        Self.show(frames[1], 1, backend, &screen, a)
        #expect(Self.region(screen, a) == F.expected(frames[1]))
    }

    @Test func pixelsTurningTransparentShowTheBackground() {
        let palette = F.colors(12, seed: 5)
        let opaque = F.blocks(70, 50, palette: palette, seed: 1)
        var holes = opaque
        F.fill(&holes, Rect(x: 13, y: 7, width: 9, height: 5), (0, 0, 0), alpha: 0)
        F.fill(&holes, Rect(x: 40, y: 30, width: 3, height: 14), (9, 9, 9), alpha: 100)  // below half: transparent
        F.fill(&holes, Rect(x: 50, y: 2, width: 6, height: 6), (200, 10, 10), alpha: 128)  // half: opaque
        var refilled = holes
        F.fill(&refilled, Rect(x: 13, y: 7, width: 4, height: 5), palette[3])
        let p = F.placement(70, 50, row: 2, column: 2)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 10, rows: 5)
        for (i, frame) in [opaque, holes, refilled, opaque].enumerated() {
            Self.show(frame, i, backend, &screen, p)
            let shown = Self.region(screen, p)
            let want = F.expected(frame)
            #expect(shown == want, "frame \(i): \(zip(shown, want).filter { $0 != $1 }.count) pixels differ")
        }
        #expect(F.expected(holes).filter { $0 == 0 }.count == 45 + 42, "the holes are there to check")
    }

    @Test func aTransparentFullFrameErasesWhatWasThere() {
        var screen = SixelDecoder(columns: 6, rows: 3)
        let p = F.placement(55, 47)
        Self.show(F.photo(55, 47), 0, SixelBackend(background: .none), &screen, p)  // something else's picture
        var sticker = RGBAImage(width: 55, height: 47)
        F.fill(&sticker, Rect(x: 10, y: 10, width: 20, height: 20), (250, 200, 0))
        Self.show(sticker, 0, SixelBackend(background: .none), &screen, p)
        #expect(Self.region(screen, p) == F.expected(sticker))
    }

    @Test func aBackgroundColourIsBlendedIn() {
        var frame = RGBAImage(width: 20, height: 10)
        F.fill(&frame, Rect(x: 0, y: 0, width: 10, height: 10), (255, 255, 255), alpha: 51)
        let backend = SixelBackend(background: .color(0, 0, 200))
        var screen = SixelDecoder(columns: 2, rows: 1)
        let p = F.placement(20, 10)
        Self.show(frame, 0, backend, &screen, p)
        let shown = Self.region(screen, p)
        // 255·0.2 + 0·0.8 = 51 (20 %); 255·0.2 + 200·0.8 = 211 (83 % → 212);
        // fully transparent: the background, 200 (78 % → 199).
        #expect(shown[0] == 0xFF33_33D4, "\(String(shown[0], radix: 16))")
        #expect(shown[15] == 0xFF00_00C7, "\(String(shown[15], radix: 16))")
    }

    @Test func nothingChangedSendsNothing() {
        var frame = F.photo(40, 30)
        frame.pixels[0] = 102
        var same = frame
        same.pixels[0] = 103  // 102 and 103 are both 40 %: the terminal cannot show the change
        #expect(F.onGrid(102) == F.onGrid(103))
        let backend = SixelBackend(background: .none)
        let p = F.placement(40, 30)
        #expect(!backend.render(frame, index: 0, placement: p).isEmpty)
        #expect(backend.render(frame, index: 0, placement: p) == [])
        #expect(backend.render(frame, index: 1, placement: p) == [])
        #expect(backend.render(same, index: 2, placement: p) == [])
    }

    /// Where an image clears what lies under it (mlterm, Konsole), each
    /// frame that changed is one image of the whole picture, and the
    /// screen is right after each; a frame that did not change sends nothing.
    @Test func aTerminalThatClearsUnderAnImageGetsWholeFrames() {
        let frames = Self.smallDiffs(96, 60, count: 5)
        let p = F.placement(96, 60, row: 1, column: 1)
        let backend = SixelBackend(background: .none, composes: false)
        var screen = SixelDecoder(columns: 16, rows: 6)
        for i in 0..<5 {
            let before = screen.pictures.count
            Self.show(frames[i], i, backend, &screen, p)
            let sent = screen.pictures.dropFirst(before)
            #expect(sent.count == 1 && sent.allSatisfy { $0.width == 96 && $0.height == 60 }, "frame \(i)")
            #expect(Self.region(screen, p) == F.expected(frames[i]), "frame \(i) differs")
        }
        #expect(backend.render(frames[4], index: 4, placement: p).isEmpty)
    }

    @Test func aSmallSpriteCostsASmallFractionOfAFrame() {
        let background = F.photo(320, 240, seed: 11)
        let p = F.placement(320, 240)
        let backend = SixelBackend(background: .none)
        var screen = SixelDecoder(columns: 32, rows: 12)
        var sizes: [Int] = []
        for i in 0..<8 {
            var frame = background
            F.fill(&frame, Rect(x: 20 + 9 * i, y: 30 + 5 * i, width: 16, height: 16), (255, 40, 40))
            F.fill(&frame, Rect(x: 24 + 9 * i, y: 34 + 5 * i, width: 8, height: 8), (20, 20, 255))
            sizes.append(Self.show(frame, i, backend, &screen, p).count)
            let db = F.psnr(Self.region(screen, p), F.expected(frame))
            #expect(db >= 30, "frame \(i): \(db) dB")
        }
        // The sprite's path and the top cell row: 1/12 of the picture, but
        // four bands of photograph and some 250 definitions again.
        #expect(sizes.dropFirst().allSatisfy { $0 < sizes[0] / 3 }, "sizes \(sizes)")
    }

    @Test func aColourThatStaysKeepsItsRegister() {
        // A sprite of four colours moving over blocks of 60 others, and a
        // photograph drifting (a quantised palette).
        let ground = F.blocks(90, 60, palette: F.colors(60, seed: 8), seed: 2)
        let sprite = F.colors(4, seed: 77)
        let moving = (0..<6).map { i in
            var frame = ground
            for (k, c) in sprite.enumerated() {
                F.fill(&frame, Rect(x: 10 + 7 * i + 3 * k, y: 12 + 2 * i, width: 3, height: 9), c)
            }
            return frame
        }
        for frames in [moving, (0..<6).map { F.photo(90, 60, phase: Double($0) * 0.02) }] {
            let backend = SixelBackend(background: .none)
            var screen = SixelDecoder(columns: 9, rows: 3)
            let p = F.placement(90, 60)
            var shared = 0
            for (i, frame) in frames.enumerated() {
                Self.show(frame, i, backend, &screen, p)
                guard screen.images.count >= 2 else { continue }
                let registerOf = { (image: SixelDecoder.Image) in
                    Dictionary(image.definitions.map { ($1, $0) }, uniquingKeysWith: min)
                }
                let before = registerOf(screen.images[screen.images.count - 2])
                let now = registerOf(screen.images.last!)
                for (color, register) in now {
                    guard let old = before[color] else { continue }
                    #expect(old == register, "frame \(i): colour \(String(color, radix: 16)) moved \(old) → \(register)")
                    shared += 1
                }
            }
            #expect(shared >= 4 * 5, "colours shared by consecutive images: \(shared)")
        }
    }

    /// xterm 379: `#n;2;r;g;b` only defines register n, only `#n` selects
    /// it, and an image starts with register 3 (the VT340's green)
    /// selected. An encoder that took the definition for a selection drew
    /// each register's first band in the colour selected before: the
    /// stripes seen in xterm.
    @Test func aDefinitionDoesNotSelect() {
        var wrong = SixelDecoder(columns: 1, rows: 1)
        wrong.feed(Array("\u{1B}[1;1H\u{1B}P0;1;0q\"1;1;4;6#5;2;100;0;0!4~\u{1B}\\".utf8))
        #expect(wrong.errors.contains { $0.contains("no register selected") }, "\(wrong.errors)")
        var right = SixelDecoder(columns: 1, rows: 1)
        right.feed(Array("\u{1B}[1;1H\u{1B}P0;1;0q\"1;1;4;6#5;2;100;0;0#5!4~\u{1B}\\".utf8))
        #expect(right.errors.isEmpty, "\(right.errors)")
        #expect(right.region(row: 1, column: 1, width: 4, height: 6).allSatisfy { $0 == 0xFFFF_0000 })
        // Every definition the backend writes is followed by its selection.
        let bytes = String(
            decoding: SixelBackend(background: .none).render(
                F.blocks(40, 30, palette: F.colors(12, seed: 3), seed: 1),
                index: 0, placement: F.placement(40, 30)), as: UTF8.self)
        let definitions = bytes.matches(of: /#(\d+);2;\d+;\d+;\d+(#\d+)?/).map { ($0.1, $0.2) }
        #expect(definitions.count >= 12)
        #expect(definitions.allSatisfy { "#" + $0.0 == $0.1 ?? "" }, "\(definitions.prefix(3))")
    }

    /// xterm keeps 16 graphics; the 17th image drops the one whose top row
    /// is the highest on the screen (the first of those): a picture at
    /// row 2 under 16 squares at row 5 is gone after an expose.
    @Test func theSeventeenthImageDropsTheHighestGraphic() {
        var screen = SixelDecoder(columns: 20, rows: 8, cellWidth: 4, cellHeight: 6)
        let image = { (row: Int, column: Int, percent: Int) in
            Array("\u{1B}[\(row);\(column)H\u{1B}P0;1;0q\"1;1;4;6#1;2;\(percent);0;0#1!4~\u{1B}\\".utf8)
        }
        screen.feed(image(2, 1, 100))
        for k in 0..<16 { screen.feed(image(5, 1 + k, k)) }
        #expect(screen.errors.isEmpty, "\(screen.errors)")
        #expect(screen.dropped == 1 && screen.graphics.count == 16)
        #expect(screen.region(row: 2, column: 1, width: 4, height: 6).allSatisfy { $0 == 0 }, "the picture at row 2 is dropped")
        // The 17th took the dropped one's slot, the first: it goes next.
        screen.feed(image(5, 20, 50))
        #expect(screen.region(row: 5, column: 16, width: 4, height: 6).allSatisfy { $0 == 0 }, "then the newest square")
        #expect(screen.region(row: 5, column: 1, width: 4, height: 6).allSatisfy { $0 != 0 })
    }

    /// A sprite bouncing over blocks for 64 frames (four times xterm's 16
    /// graphics), with half the picture repainted once (a new keyframe),
    /// at the top of the screen, lower, and below a blank row (where the
    /// images that may be dropped start): after every image the screen
    /// as xterm repaints it is the frame, whichever graphics were dropped.
    @Test func manyImagesStayExactWithSixteenGraphics() {
        let ground = F.blocks(80, 100, palette: F.colors(40, seed: 5), seed: 9)
        let sprite = F.colors(3, seed: 13)
        // A blank row claimed at the top of the screen (row 1) is not used.
        for (row, blank) in [(1, 0), (3, 0), (3, 1), (1, 1)] {
            let p = F.placement(80, 100, row: row, column: 2, blankRowsAbove: blank)
            let backend = SixelBackend(background: .none)
            var screen = SixelDecoder(columns: 10, rows: 9)
            for i in 0..<64 {
                var frame = ground
                if i >= 40 { F.fill(&frame, Rect(x: 0, y: 40, width: 80, height: 60), sprite[2]) }
                let y = 5 + abs((i * 7) % 140 - 70)
                F.fill(&frame, Rect(x: 20 + i % 30, y: y, width: 14, height: 12), sprite[i % 2])
                Self.show(frame, i, backend, &screen, p)
                #expect(Self.region(screen, p) == F.expected(frame), "row \(row), frame \(i)")
            }
            #expect(screen.dropped > 30, "row \(row): \(screen.dropped) graphics dropped")
        }
    }

    /// A resize: the player clears the screen and the picture comes back
    /// at another row, higher or lower, below a blank row or not. Erasing
    /// alone leaves xterm's graphics in their slots; when they lie below
    /// the new keyframe's base, the next images drop the base (without
    /// the line feeds 92 of this test's checks fail). Scrolling them off
    /// the top first (`SixelBackend.clearing`) frees them.
    @Test func aPictureMovedAfterAClearStaysExactWithSixteenGraphics() {
        let ground = F.blocks(80, 100, palette: F.colors(40, seed: 5), seed: 9)
        let sprite = F.colors(3, seed: 13)
        for (first, second) in [((5, 1), (3, 1)), ((3, 1), (5, 1)), ((5, 1), (2, 0)), ((4, 0), (2, 0)), ((2, 0), (4, 1))] {
            let backend = SixelBackend(background: .none)
            var screen = SixelDecoder(columns: 12, rows: 11)
            for (part, (row, blank)) in [first, second].enumerated() {
                let p = F.placement(80, 100, row: row, column: 2, blankRowsAbove: blank)
                if part == 1 {
                    backend.invalidate()
                    screen.feed(SixelBackend.clearing(rows: 11))
                    #expect(screen.graphics.isEmpty, "every graphic scrolled off and deleted")
                }
                for i in 0..<30 {
                    var frame = ground
                    F.fill(&frame, Rect(x: 20 + i % 30, y: 5 + (i * 7) % 80, width: 14, height: 12), sprite[i % 2])
                    Self.show(frame, i, backend, &screen, p)
                    #expect(Self.region(screen, p) == F.expected(frame), "\(first) then \(second): part \(part), frame \(i)")
                }
            }
        }
    }
}
