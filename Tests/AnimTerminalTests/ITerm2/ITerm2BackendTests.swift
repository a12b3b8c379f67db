@_spi(AnimTools) import AnimKit
import Testing

@testable import AnimTerminal

/// The iTerm2 backend's stream, replayed by a model of a terminal that keeps
/// inline images as pieces of cells (a new image written over cells
/// replaces what they held), shows exactly the frames given.
struct ITerm2BackendTests {
    /// The screen in pixels: cells of `cell` size, images pasted at the cursor's cell.
    struct Screen {
        let cell = CellGeometry(width: 10, height: 20)
        var pixels: RGBAImage
        var row = 1, column = 1
        var errors: [String] = []

        init(columns: Int, rows: Int) { pixels = RGBAImage(width: columns * 10, height: rows * 20) }

        mutating func feed(_ bytes: [UInt8]) {
            var i = 0
            while i < bytes.count {
                guard bytes[i] == 0x1B, i + 1 < bytes.count else {
                    errors.append("stray byte")
                    return
                }
                if bytes[i + 1] == UInt8(ascii: "[") {
                    var j = i + 2
                    while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    let p = String(decoding: bytes[(i + 2)..<j], as: UTF8.self).split(separator: ";").map { Int($0) ?? 1 }
                    if bytes[j] == UInt8(ascii: "H") {
                        row = p.first ?? 1
                        column = p.count > 1 ? p[1] : 1
                    } else {
                        errors.append("CSI")
                    }
                    i = j + 1
                    continue
                }
                guard bytes[i + 1] == UInt8(ascii: "]"), let end = bytes[i...].firstIndex(of: 0x07) else {
                    errors.append("not OSC")
                    return
                }
                let body = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
                guard body.hasPrefix("1337;File="), let colon = body.firstIndex(of: ":") else {
                    errors.append("not File=")
                    return
                }
                let keys = body[body.index(body.startIndex, offsetBy: 10)..<colon].split(separator: ";")
                guard keys.contains("inline=1"), keys.contains("doNotMoveCursor=1") else {
                    errors.append("keys \(keys)")
                    return
                }
                let data = Base64.decode(String(body[body.index(after: colon)...]))
                guard keys.contains("size=\(data.count)") else {
                    errors.append("size key")
                    return
                }
                do {
                    let image = try ImageSource(data: data).frame(at: 0)
                    guard keys.contains("width=\(image.width)px"), keys.contains("height=\(image.height)px") else {
                        errors.append("width/height keys")
                        return
                    }
                    paste(image)
                } catch { errors.append("not a PNG") }
                i = end + 1
            }
        }

        /// The cells an image covers take its pixels; the rest of those cells clears.
        mutating func paste(_ image: RGBAImage) {
            let x0 = (column - 1) * cell.width
            let y0 = (row - 1) * cell.height
            let cells = ((image.width + cell.width - 1) / cell.width, (image.height + cell.height - 1) / cell.height)
            for y in y0..<min(y0 + cells.1 * cell.height, pixels.height) {
                for x in x0..<min(x0 + cells.0 * cell.width, pixels.width) {
                    let inside = x - x0 < image.width && y - y0 < image.height
                    for k in 0..<4 {
                        pixels.pixels[(y * pixels.width + x) * 4 + k] =
                            inside ? image.pixels[((y - y0) * image.width + x - x0) * 4 + k] : 0
                    }
                }
            }
        }

        func region(_ p: Placement) -> RGBAImage {
            var out = RGBAImage(width: p.pixels.width, height: p.pixels.height)
            let x0 = (p.column - 1) * cell.width
            let y0 = (p.row - 1) * cell.height
            for y in 0..<out.height {
                for x in 0..<out.width {
                    for k in 0..<4 {
                        out.pixels[(y * out.width + x) * 4 + k] = pixels.pixels[((y0 + y) * pixels.width + x0 + x) * 4 + k]
                    }
                }
            }
            return out
        }
    }

    func placement(_ image: RGBAImage, row: Int = 2, column: Int = 3) -> Placement {
        Placement(
            row: row, column: column, columns: (image.width + 9) / 10, rows: (image.height + 19) / 20,
            pixels: PixelSize(width: image.width, height: image.height), cell: CellGeometry(width: 10, height: 20))
    }

    @Test func framesAreReproducedOverDiffsInBothDirections() {
        let frames = KittyBackendTests.clip(10, alpha: true)
        let backend = ITerm2Backend(background: .none)
        var screen = Screen(columns: 30, rows: 10)
        var sizes: [Int] = []
        for i in Array(0..<10) + Array((0..<10).reversed()) + [3, 7, 1] {
            let bytes = backend.render(frames[i], index: i, placement: placement(frames[i]))
            sizes.append(bytes.count)
            screen.feed(bytes)
            #expect(screen.errors.isEmpty, "\(screen.errors)")
            let exact = screen.region(placement(frames[i])) == frames[i]
            #expect(exact, "frame \(i)")
        }
        #expect(sizes.dropFirst().allSatisfy { $0 < sizes[0] / 2 }, "a moving sprite costs a part of a frame: \(sizes)")
        #expect(backend.render(frames[1], index: 1, placement: placement(frames[1])) == [], "the same pixels cost nothing")
    }

    @Test func aResizeDrawsTheWholeFrameAgain() {
        let frames = KittyBackendTests.clip(3)
        let small = KittyBackendTests.clip(3, width: 80, height: 48)
        let backend = ITerm2Backend(background: .none)
        var screen = Screen(columns: 30, rows: 10)
        screen.feed(backend.render(frames[0], index: 0, placement: placement(frames[0])))
        backend.invalidate()
        let bytes = backend.render(small[1], index: 1, placement: placement(small[1], row: 1, column: 1))
        screen.feed(bytes)
        #expect(screen.region(placement(small[1], row: 1, column: 1)) == small[1])
        #expect(String(decoding: bytes, as: UTF8.self).contains("width=80px;height=48px"))
    }
}
