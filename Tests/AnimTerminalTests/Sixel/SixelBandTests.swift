import AnimKit
import Testing

@testable import AnimTerminal

/// What goes into a band of six rows: registers laid out in passes
/// (`SixelEncoder`), and slanted boundaries of quantised colours made
/// straight (`SixelColumns`).
struct SixelBandTests {
    typealias F = SixelFixtures
    typealias T = SixelBackendTests

    /// Per band, per pass, the colours selected (`#n` alone), read from the
    /// last sixel image in `bytes` through its definitions.
    static func passes(_ bytes: [UInt8]) -> [[[UInt32]]] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.ranges(of: "\u{1B}P").last?.upperBound,
            let end = text.range(of: "\u{1B}\\", range: start..<text.endIndex)?.lowerBound
        else { return [] }
        let body = String(text[start..<end])
        var colors: [Int: UInt32] = [:]
        for m in body.matches(of: /#(\d+);2;(\d+);(\d+);(\d+)/) {
            var value: UInt32 = 0xFF
            for percent in [m.2, m.3, m.4] {
                let level = (Double(Int(percent) ?? 0) * 255 / 100).rounded()
                value = value << 8 | UInt32(level)
            }
            colors[Int(m.1) ?? -1] = value
        }
        let data = body.replacing(/#\d+;2;\d+;\d+;\d+/, with: "")
        return data.split(separator: "-", omittingEmptySubsequences: false).map { band in
            band.split(separator: "$", omittingEmptySubsequences: false).map { pass in
                pass.matches(of: /#(\d+)/).map { colors[Int($0.1) ?? -1] ?? 0 }
            }
        }
    }

    static func key(_ c: (UInt8, UInt8, UInt8)) -> UInt32 {
        0xFF00_0000 | F.onGrid(c.0) << 16 | F.onGrid(c.1) << 8 | F.onGrid(c.2)
    }

    @Test func registersSideBySideShareOnePass() {
        // Ten stripes six columns wide, in ten colours far apart.
        let palette = F.colors(10, seed: 5)
        var frame = RGBAImage(width: 60, height: 6)
        for (i, c) in palette.enumerated() { F.fill(&frame, Rect(x: 6 * i, y: 0, width: 6, height: 6), c) }
        var screen = SixelDecoder(columns: 6, rows: 1)
        let p = F.placement(60, 6)
        let bytes = T.show(frame, 0, SixelBackend(background: .none), &screen, p)
        #expect(T.region(screen, p) == F.expected(frame))
        #expect(Self.passes(bytes) == [[palette.map(Self.key)]])
    }

    @Test func aRegisterJoinsThePassThatEndsNearestBeforeIt() {
        // a over columns 0–29 except b (top half) and c (bottom half) over
        // 10–19; d over 30–39. b and c overlap a and each other: three
        // passes. d could follow any of them; a ends nearest before it.
        let a: (UInt8, UInt8, UInt8) = (200, 0, 0)
        let b: (UInt8, UInt8, UInt8) = (0, 200, 0)
        let c: (UInt8, UInt8, UInt8) = (0, 0, 200)
        let d: (UInt8, UInt8, UInt8) = (200, 200, 0)
        var frame = RGBAImage(width: 40, height: 6)
        F.fill(&frame, Rect(x: 0, y: 0, width: 30, height: 6), a)
        F.fill(&frame, Rect(x: 10, y: 0, width: 10, height: 3), b)
        F.fill(&frame, Rect(x: 10, y: 3, width: 10, height: 3), c)
        F.fill(&frame, Rect(x: 30, y: 0, width: 10, height: 6), d)
        var screen = SixelDecoder(columns: 4, rows: 1)
        let p = F.placement(40, 6)
        let bytes = T.show(frame, 0, SixelBackend(background: .none), &screen, p)
        #expect(T.region(screen, p) == F.expected(frame))
        let passes = Self.passes(bytes)
        #expect(passes.count == 1 && passes[0].count == 3)
        #expect(passes.first?.first == [a, d].map(Self.key))
        #expect(Set(passes.first?.dropFirst() ?? []) == [[Self.key(b)], [Self.key(c)]])
        // a's pass: its 30 columns (b and c's ten blank in it), then d straight on.
        #expect(String(decoding: bytes, as: UTF8.self).contains("!10~!10?!10~#"))
    }

    /// Registers and keys for `straighten`: one column, rows as given.
    static func straightened(_ registers: [UInt16], keys: [UInt32], colors: [UInt32]) -> [UInt16] {
        var out = registers
        out.withUnsafeMutableBufferPointer { out in
            keys.withUnsafeBufferPointer { keys in
                colors.withUnsafeBufferPointer { colors in
                    SixelColumns.straighten(
                        out, keys: keys, stride: 1, tile: Rect(x: 0, y: 0, width: 1, height: registers.count), colors: colors)
                }
            }
        }
        return out
    }

    @Test func aPixelTakesTheRegisterAboveWithinTwelveLevels() {
        let colors: [UInt32] = [0xFF64_6464, 0xFF70_6464, 0xFF64_6464 + 0x0D_0000]
        let n = SixelEncoder.none
        // Row 1 is 12 levels from register 0 (144: taken), row 2 is 13 (169:
        // kept), row 3 follows row 2's register, row 6 starts a band (kept).
        let keys: [UInt32] = [0xFF64_6464, 0xFF70_6464, 0xFF71_6464, 0xFF70_6464, 0, 0xFF64_6464, 0xFF64_6464, 0xFF64_6464]
        let registers: [UInt16] = [0, 1, 2, 1, n, 0, 1, 0]
        #expect(Self.straightened(registers, keys: keys, colors: colors) == [0, 0, 2, 2, n, 0, 1, 1])
        // Colours further apart keep their registers (an edge, text, noise).
        let far: [UInt32] = [0xFF00_0000, 0xFFFF_FFFF]
        let edge: [UInt16] = [0, 0, 0, 1, 1, 1]
        #expect(
            Self.straightened(edge, keys: [far[0], far[0], far[0], far[1], far[1], far[1]], colors: far) == edge)
    }

    /// Whole sixels (one register for all the rows of a band's column) as
    /// a share of the columns of the bands of `picture`.
    static func wholeColumns(_ picture: [UInt32], width: Int) -> Double {
        let height = picture.count / width
        var whole = 0
        var all = 0
        for band in stride(from: 0, to: height, by: 6) {
            for x in 0..<width {
                let column = (band..<min(band + 6, height)).map { picture[$0 * width + x] }
                all += 1
                if Set(column).count == 1 { whole += 1 }
            }
        }
        return Double(whole) / Double(all)
    }

    @Test func quantisedGradientsGoWholeColumnsWithinTwelveLevels() {
        // A slanted gradient (about a level a pixel, as the 720p clip at
        // 640×360), more colours than registers, in one cell row: one
        // image, bands from its top.
        let frame = RGBAImage.drawn(width: 240, height: 18) { x, y in
            (UInt8(40 + x * 4 / 5), UInt8(90 + y + x / 4), UInt8(200 - x / 3 + y / 2), 255)
        }
        var screen = SixelDecoder(columns: 24, rows: 1)
        let p = F.placement(240, 18)
        T.show(frame, 0, SixelBackend(background: .none), &screen, p)
        let shown = T.region(screen, p)
        let want = F.expected(frame)
        let palette = Set(screen.pictures.flatMap { $0.definitions.values })
        #expect(Set(want).count > 256, "quantised: \(Set(want).count) colours")
        // Every pixel is its nearest register's colour, or one within the
        // tolerance (both by the matcher's distance).
        var moved = 0
        for (s, w) in zip(shown, want) {
            let nearest = palette.map { PaletteMatcher.distance($0, w) }.min() ?? 0
            let d = PaletteMatcher.distance(s, w)
            #expect(d <= max(nearest, SixelColumns.tolerance), "\(String(s, radix: 16)) for \(String(w, radix: 16))")
            if d > nearest { moved += 1 }
        }
        let whole = Self.wholeColumns(shown, width: 240)
        #expect(moved > shown.count / 20, "\(moved) pixels moved")
        // Nearest colours alone (tolerance 0) leave 18% of the columns
        // whole here, at 43.8 dB; straightened all are, at 40.3.
        #expect(whole >= 0.9, "\(whole)")
        #expect(F.psnr(shown, want) >= 39)
    }

    @Test func exactColoursStayExact() {
        // Two colours 8 levels apart with a slanted boundary: few enough
        // colours for their own registers, so nothing moves.
        let frame = RGBAImage.drawn(width: 60, height: 12) { x, y in x > 20 + y ? (108, 100, 100, 255) : (100, 100, 100, 255) }
        var screen = SixelDecoder(columns: 6, rows: 1)
        let p = F.placement(60, 12)
        T.show(frame, 0, SixelBackend(background: .none), &screen, p)
        #expect(T.region(screen, p) == F.expected(frame))
    }
}

extension SixelBandTests {
    /// Bands as costly as they come: every pixel its own register of
    /// 1024, runs of every length, a register in every other column;
    /// the encoder asserts (in test builds) that a band stays within
    /// `bandBound`, and the decoder reads every pixel back.
    @Test func theCostliestBandsStayWithinTheirBound() {
        var random = F.Random(state: 77)
        let width = 203
        let registers = 1024
        var palette: [UInt32] = []
        for i in 0..<registers {
            let r = UInt32(i * 37 % 256)
            let g = UInt32(i * 61 % 256)
            let b = UInt32(i % 256)
            palette.append(0xFF00_0000 | r << 16 | g << 8 | b)
        }
        for pattern in 0..<3 {
            var indices = [UInt16](repeating: SixelEncoder.none, count: width * 12)
            for i in indices.indices {
                switch pattern {
                case 0: indices[i] = UInt16(random.below(registers))
                case 1: indices[i] = UInt16((i % width) / (1 + i / width) % registers)
                default: indices[i] = i % 2 == 0 ? UInt16(i / 2 % registers) : SixelEncoder.none
                }
            }
            var out: [UInt8] = []
            indices.withUnsafeBufferPointer { indices in
                SixelEncoder().encode(
                    indices, stride: width, tile: Rect(x: 0, y: 0, width: width, height: 12), colors: palette, into: &out)
            }
            var screen = SixelDecoder(columns: 21, rows: 1)
            screen.feed(Escape.moveTo(row: 1, column: 1) + out)
            #expect(screen.errors.isEmpty, "pattern \(pattern): \(screen.errors.prefix(3))")
            let shown = screen.region(row: 1, column: 1, width: width, height: 12)
            let want = indices.map { $0 == SixelEncoder.none ? UInt32(0) : SixelBandTests.onGrid(palette[Int($0)]) }
            #expect(shown == want, "pattern \(pattern)")
        }
    }

    /// A colour as the terminal shows it: each level through whole percent.
    static func onGrid(_ c: UInt32) -> UInt32 {
        let r = F.onGrid(UInt8((c >> 16) & 0xFF))
        let g = F.onGrid(UInt8((c >> 8) & 0xFF))
        let b = F.onGrid(UInt8(c & 0xFF))
        return 0xFF00_0000 | r << 16 | g << 8 | b
    }
}
