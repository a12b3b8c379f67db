import AnimKit
import AnimTerminal
import AnimTestSupport
import Foundation

/// Frames for the sixel tests, made from fixed seeds, and the measures
/// they are checked with.
enum SixelFixtures {
    typealias Random = FuzzRandom

    /// `count` distinct opaque colours.
    static func colors(_ count: Int, seed: UInt64) -> [(UInt8, UInt8, UInt8)] {
        var random = Random(state: seed)
        var seen = Set<UInt32>()
        var out: [(UInt8, UInt8, UInt8)] = []
        while out.count < count {
            let c = (random.highByte(), random.highByte(), random.highByte())
            if seen.insert(UInt32(c.0) << 16 | UInt32(c.1) << 8 | UInt32(c.2)).inserted { out.append(c) }
        }
        return out
    }

    /// A frame of rectangles in colours of `palette`, every pixel opaque.
    static func blocks(_ w: Int, _ h: Int, palette: [(UInt8, UInt8, UInt8)], seed: UInt64) -> RGBAImage {
        var random = Random(state: seed)
        var image = RGBAImage(width: w, height: h)
        fill(&image, Rect(x: 0, y: 0, width: w, height: h), palette[0])
        for _ in 0..<(w * h / 40 + 8) {
            let rw = 1 + random.below(max(w / 4, 1))
            let rh = 1 + random.below(max(h / 4, 1))
            fill(
                &image, Rect(x: random.below(w), y: random.below(h), width: rw, height: rh), palette[random.below(palette.count)])
        }
        for (i, c) in palette.enumerated() where i < w * h {  // every colour appears
            set(&image, i % w, i / w, c)
        }
        return image
    }

    /// A smooth, photograph-like frame (gradients, soft shapes, fine
    /// noise): many more colours than registers. `phase` moves it.
    static func photo(_ w: Int, _ h: Int, phase: Double = 0, seed: UInt64 = 7) -> RGBAImage {
        var random = Random(state: seed)
        return RGBAImage.drawn(width: w, height: h) { x, y in
            let u = Double(x) / Double(max(w, 1))
            let v = Double(y) / Double(max(h, 1))
            let r = 128 + 100 * sin(6 * u + phase) * cos(3 * v)
            let g = 128 + 90 * sin(4 * v + 2 * u - phase)
            let b = 128 + 110 * cos(5 * (u - v) + phase * 0.5)
            let c = [r, g, b].map { UInt8(min(max($0 + Double(random.below(9)) - 4, 0), 255)) }
            return (c[0], c[1], c[2], 255)
        }
    }

    static func fill(_ image: inout RGBAImage, _ rect: Rect, _ c: (UInt8, UInt8, UInt8), alpha: UInt8 = 255) {
        let r = rect.intersection(Rect(x: 0, y: 0, width: image.width, height: image.height))
        guard !r.isEmpty else { return }
        for y in r.y..<(r.y + r.height) { for x in r.x..<(r.x + r.width) { set(&image, x, y, c, alpha: alpha) } }
    }

    static func set(_ image: inout RGBAImage, _ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8), alpha: UInt8 = 255) {
        let i = (y * image.width + x) * 4
        image.pixels[i] = c.0
        image.pixels[i + 1] = c.1
        image.pixels[i + 2] = c.2
        image.pixels[i + 3] = alpha
    }

    /// A level as the terminal shows it: through whole percent.
    static func onGrid(_ v: UInt8) -> UInt32 {
        let p = (Double(v) * 100 / 255).rounded()
        return UInt32((p * 255 / 100).rounded())
    }

    /// What the screen should show for `image` over the terminal's
    /// background: 0 where alpha < 128, else the colour on the percent grid.
    static func expected(_ image: RGBAImage) -> [UInt32] {
        (0..<(image.width * image.height)).map { i in
            let p = image.pixels[(4 * i)..<(4 * i + 4)].map { $0 }
            return p[3] < 128 ? 0 : 0xFF00_0000 | onGrid(p[0]) << 16 | onGrid(p[1]) << 8 | onGrid(p[2])
        }
    }

    /// PSNR in dB over the RGB channels of two key arrays (a pixel
    /// transparent in one and not the other counts as a full error).
    static func psnr(_ a: [UInt32], _ b: [UInt32]) -> Double {
        precondition(a.count == b.count)
        var sum = 0.0
        for (x, y) in zip(a, b) {
            if (x == 0) != (y == 0) {
                sum += 3 * 255 * 255
                continue
            }
            for shift in [16, 8, 0] as [UInt32] {
                let d = Double(Int((x >> shift) & 0xFF) - Int((y >> shift) & 0xFF))
                sum += d * d
            }
        }
        let mse = sum / Double(3 * max(a.count, 1))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// A placement of a `w` × `h` picture at cell (row, column) for 10×20 cells.
    static func placement(
        _ w: Int, _ h: Int, row: Int = 1, column: Int = 1, cell: CellGeometry = .assumed, blankRowsAbove: Int = 0
    ) -> Placement {
        Placement(
            row: row, column: column, columns: (w + cell.width - 1) / cell.width,
            rows: (h + cell.height - 1) / cell.height, pixels: PixelSize(width: w, height: h), cell: cell,
            blankRowsAbove: blankRowsAbove)
    }
}
