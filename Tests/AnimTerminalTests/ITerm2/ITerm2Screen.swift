import AnimKit
import AnimTestSupport

@testable import AnimTerminal

/// A model of a terminal that keeps iTerm2's inline images as pieces of
/// cells (a new image written over cells replaces what they held): the
/// screen in pixels, cells of `cell` size, images pasted at the cursor's cell.
struct ITerm2Screen {
    let cell = CellGeometry(width: 10, height: 20)
    var pixels: RGBAImage
    var row = 1, column = 1
    var errors: [String] = []

    init(columns: Int, rows: Int) { pixels = RGBAImage(width: columns * 10, height: rows * 20) }

    mutating func feed(_ bytes: [UInt8]) {
        for (offset, piece) in EscapeScanner(bytes) {
            switch piece {
            case .csi(let params, UInt8(ascii: "H")): (row, column) = EscapeScanner.cursor(params)
            case .string(UInt8(ascii: "]"), let body): file(String(decoding: body, as: UTF8.self))
            default:
                errors.append("unexpected \(piece) at \(offset)")
                return
            }
        }
    }

    /// An OSC 1337 `File=` sequence: an inline image, placed at the cursor.
    mutating func file(_ body: String) {
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
