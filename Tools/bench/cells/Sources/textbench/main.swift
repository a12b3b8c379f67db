// How long the text-cell backend takes per frame in an 80×24 box, for
// every symbol set and colour mode: making the cells from the frame
// (`CellGrid`) and the bytes from the cells (`FrameRenderer`, tolerance 2).
// Two clips per case: a textured gradient with a block moving over it (60
// frames), and random noise with random alpha (20 frames), each played 3 times.
import AnimKit
import AnimTerminal
import Glibc

func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }
func ms(_ seconds: Double) -> String { String(Double(Int((seconds * 1_000_000).rounded())) / 1000) }

nonisolated(unsafe) var state: UInt64 = 1
func random() -> UInt8 { state = state &* 6364136223846793005 &+ 1442695040888963407; return UInt8(state >> 56) }

let start = now()
_ = XtermPalette.index(1, 2, 3)
print("256-colour table built in \(ms(now() - start)) ms")

func clips(_ w: Int, _ h: Int) -> [(String, [RGBAImage])] {
    var base = [UInt8](repeating: 255, count: w * h * 4)
    for y in 0..<h {
        for x in 0..<w {
            let i = (y * w + x) * 4
            base[i] = UInt8(x * 255 / w); base[i + 1] = UInt8(y * 255 / h) &+ (random() & 15); base[i + 2] = UInt8(128 + (x ^ y) % 64)
        }
    }
    let sprite = (0..<60).map { f -> RGBAImage in
        var px = base
        for y in (h / 3)..<(h / 3 + h / 6) {
            for x in (f * w / 80)..<min(f * w / 80 + w / 10, w) { let i = (y * w + x) * 4; px[i] = 250; px[i + 1] = 30; px[i + 2] = 30 }
        }
        return RGBAImage(width: w, height: h, pixels: px)
    }
    let noise = (0..<20).map { _ in RGBAImage(width: w, height: h, pixels: (0..<(w * h * 4)).map { _ in random() }) }
    return [("sprite", sprite), ("noise", noise)]
}

print("| symbols | colours | clip | cells ms/frame | render ms/frame | bytes/frame |")
print("|---|---|---|---|---|---|")
for symbols in TextSymbols.allCases {
    let all = clips(80 * symbols.across, 24 * symbols.down)
    for (mode, dither) in [(ColorMode.trueColor, PaletteDither.none), (.palette256, .none), (.palette256, .noise)] {
        for (name, clip) in all {
            let renderer = FrameRenderer(mode: mode, tolerance: 2)
            var cells = 0.0, render = 0.0, bytes = 0
            for _ in 0..<3 {
                renderer.invalidate()
                for frame in clip {
                    let a = now()
                    let grid = CellGrid(image: frame, background: .none, symbols: symbols, mode: mode, dither: dither)
                    let b = now()
                    bytes += renderer.render(grid).count
                    render += now() - b; cells += b - a
                }
            }
            let n = Double(clip.count * 3)
            print("| \(symbols) | \(mode.rawValue)\(dither == .none ? "" : " dithered") | \(name) | \(ms(cells / n)) | \(ms(render / n)) | \(bytes / (clip.count * 3)) |")
        }
    }
}
