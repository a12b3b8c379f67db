import AnimKit
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// What finer symbols cost: a mostly static clip (a detailed background
/// that never changes, a small ball moving over it), 60 frames in an 80×24
/// box, drawn with each set.
struct ByteCostTests {
    static let columns = 80, rows = 24, frameCount = 60

    /// The background at (u, v) in 0..<1: a sky gradient with soft clouds,
    /// hills, and grass with detail at 320×192.
    static func background(_ u: Double, _ v: Double) -> (Double, Double, Double) {
        let horizon = 0.55 + 0.08 * sin(7 * u) + 0.03 * sin(23 * u + 1)
        if v < horizon {
            let t = v / horizon
            let cloud = max(0, sin(9 * u + 3 * v) * sin(4 * u - 11 * v) - 0.3) * 120
            return (60 + 120 * t + cloud, 110 + 100 * t + cloud, 190 + 45 * t + cloud * 0.3)
        }
        var h = UInt64(Int(u * 320)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(Int(v * 192)) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        let n = Double(h % 64) - 32
        let stripe = Int(u * 160) % 9 == 0 ? -40.0 : 0
        return (60 + n + stripe, 140 + n * 1.5 + stripe, 50 + n * 0.5)
    }

    /// The ball at frame `t` in 0..<1, or nil outside it: red and white
    /// stripes, radius 0.06 of the height.
    static func ball(_ u: Double, _ v: Double, _ t: Double) -> (Double, Double, Double)? {
        let cx = 0.1 + 0.8 * t
        let cy = 0.2 + 0.25 * abs(sin(3 * Double.pi * t))
        let dx = (u - cx) * 5 / 3
        let dy = v - cy
        guard dx * dx + dy * dy < 0.06 * 0.06 else { return nil }
        return Int((atan2(dy, dx) + 7 * t) * 3 + 100) % 2 == 0 ? (220, 30, 40) : (245, 245, 240)
    }

    /// The frame at `t` for `symbols`: 3×3 samples a sub-pixel.
    static func frame(_ t: Double, _ symbols: TextSymbols, over still: [UInt8]?) -> RGBAImage {
        let (w, h) = (columns * symbols.across, rows * symbols.down)
        var px = still ?? [UInt8](repeating: 255, count: w * h * 4)
        // The ball's box (it lies within 0.04 across and 0.065 down of its centre).
        let cx = 0.1 + 0.8 * t
        let cy = 0.2 + 0.25 * abs(sin(3 * Double.pi * t))
        let xs = still == nil ? 0..<w : max(Int((cx - 0.04) * Double(w)), 0)..<min(Int((cx + 0.04) * Double(w)) + 1, w)
        let ys = still == nil ? 0..<h : max(Int((cy - 0.065) * Double(h)), 0)..<min(Int((cy + 0.065) * Double(h)) + 1, h)
        for y in ys {
            for x in xs {
                var sum = (0.0, 0.0, 0.0)
                var inBall = false
                for sy in 0..<3 {
                    for sx in 0..<3 {
                        let u = (Double(x) + (Double(sx) + 0.5) / 3) / Double(w)
                        let v = (Double(y) + (Double(sy) + 0.5) / 3) / Double(h)
                        let ball = still == nil ? nil : ball(u, v, t)
                        inBall = inBall || ball != nil
                        let c = ball ?? background(u, v)
                        sum = (sum.0 + c.0, sum.1 + c.1, sum.2 + c.2)
                    }
                }
                guard still == nil || inBall else { continue }
                let i = (y * w + x) * 4
                px[i] = UInt8(clamping: Int(sum.0 / 9))
                px[i + 1] = UInt8(clamping: Int(sum.1 / 9))
                px[i + 2] = UInt8(clamping: Int(sum.2 / 9))
            }
        }
        return RGBAImage(width: w, height: h, trusting: px)
    }

    /// Total bytes of the clip, and of its first frame.
    static func cost(_ symbols: TextSymbols, _ mode: ColorMode, tolerance: Int) -> (total: Int, first: Int) {
        let still = frame(0, symbols, over: nil).pixels
        let renderer = FrameRenderer(mode: mode, tolerance: tolerance)
        var screen = ANSIScreen(columns: columns, rows: rows)
        var total = 0
        var first = 0
        for i in 0..<frameCount {
            let grid = CellGrid(
                image: frame(Double(i) / Double(frameCount), symbols, over: still), background: .none,
                symbols: symbols, mode: mode, dither: .none)
            let bytes = renderer.render(grid)
            if i == 0 { first = bytes.count }
            total += bytes.count
            screen.feed(bytes)
            if tolerance == 0 && screen.region(grid) != grid.cells { Issue.record("\(symbols) frame \(i) not drawn right") }
        }
        return (total, first)
    }

    @Test(arguments: [(ColorMode.trueColor, 2), (.trueColor, 0), (.palette256, 0)])
    func sextantsCostAtMostHalfAgainAsMuch(_ mode: ColorMode, _ tolerance: Int) {
        let costs = TextSymbols.allCases.map { Self.cost($0, mode, tolerance: tolerance) }
        print(
            "bytes, \(Self.frameCount) frames in 80×24, \(mode) tolerance \(tolerance): "
                + zip(TextSymbols.allCases, costs).map { "\($0) \($1.total) (first frame \($1.first))" }.joined(separator: ", "))
        let (half, sextant) = (costs[0].total, costs[2].total)
        #expect(Double(sextant) <= 1.5 * Double(half), "sextants \(sextant) bytes, half blocks \(half)")
        #expect(costs.allSatisfy { $0.total > $0.first && $0.first > 80 * 24 }, "every frame drew something")
    }
}
