import AnimTerminal

/// A small sixel terminal for tests: a screen of `columns` × `rows` cells
/// of `cellWidth` × `cellHeight` pixels, one key a pixel (`0xFFRRGGBB`, 0
/// where the terminal's background shows). It understands what the sixel
/// backend may send — CUP, SGR 0, ECH, sixel images (raster attributes,
/// colour definitions and selections, `!` repeats, `$`, `-`), tmux's
/// passthrough — and reports anything else, and every misuse, in `errors`.
///
/// Like xterm with private colour registers, each image starts with no
/// register defined: a selection of a register the image has not defined
/// is an error. After an image the cursor's place is unknown (terminals
/// differ): a CUP must come before anything that needs it.
struct SixelDecoder {
    /// One sixel image received.
    struct Image {
        var row: Int, column: Int
        var width = 0, height = 0
        /// Register → colour defined in this image.
        var definitions: [Int: UInt32] = [:]
        /// Redundant `$` (before `-`, another `$` or the end).
        var redundantReturns = 0
    }

    let columns: Int, rows: Int, cellWidth: Int, cellHeight: Int
    var pixels: [UInt32]
    var row = 1, column = 1
    var cursorKnown = false
    var attributesDefault = true
    var errors: [String] = []
    var images: [Image] = []

    init(columns: Int, rows: Int, cellWidth: Int = 10, cellHeight: Int = 20) {
        self.columns = columns; self.rows = rows; self.cellWidth = cellWidth; self.cellHeight = cellHeight
        pixels = [UInt32](repeating: 0, count: columns * cellWidth * rows * cellHeight)
    }

    var width: Int { columns * cellWidth }

    /// The pixels of the `w` × `h` area whose top-left is cell (row, column), 1-based.
    func region(row: Int, column: Int, width w: Int, height h: Int) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(w * h)
        let x0 = (column - 1) * cellWidth, y0 = (row - 1) * cellHeight
        for y in y0..<(y0 + h) { out += pixels[(y * width + x0)..<(y * width + x0 + w)] }
        return out
    }

    mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else { errors.append("text byte \(bytes[i]) at \(i)"); return }
            if bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { errors.append("unterminated CSI"); return }
                control(String(decoding: bytes[(i + 2)..<j], as: UTF8.self), bytes[j])
                i = j + 1
            } else if bytes[i + 1] == UInt8(ascii: "P") {
                var j = i + 2
                // The end: an ESC \ whose ESC is not a doubled one (tmux).
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == 0x5C) { j += bytes[j] == 0x1B ? 2 : 1 }
                guard j + 1 < bytes.count else { errors.append("unterminated DCS"); return }
                dcs(Array(bytes[(i + 2)..<j]))
                i = j + 2
            } else {
                errors.append("unknown escape \(bytes[i + 1])"); return
            }
        }
    }

    private mutating func control(_ params: String, _ final: UInt8) {
        let p = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        switch final {
        case UInt8(ascii: "H"):
            row = max(p.first ?? 1, 1); column = max(p.count > 1 ? p[1] : 1, 1); cursorKnown = true
            if row > rows || column > columns { errors.append("CUP outside the screen: \(row);\(column)") }
        case UInt8(ascii: "m"):
            if params == "0" || params.isEmpty { attributesDefault = true } else { errors.append("SGR \(params)") }
        case UInt8(ascii: "X"):
            guard cursorKnown else { errors.append("ECH with the cursor unknown"); return }
            if !attributesDefault { errors.append("ECH with attributes set") }
            let n = max(p.first ?? 1, 1)
            if column + n - 1 > columns { errors.append("ECH past the right edge") }
            for c in column..<min(column + n, columns + 1) { clearCell(row: row, column: c) }
        default: errors.append("unknown CSI \(params)\(Character(UnicodeScalar(final)))")
        }
    }

    private mutating func clearCell(row: Int, column: Int) {
        for y in ((row - 1) * cellHeight)..<(row * cellHeight) {
            for x in ((column - 1) * cellWidth)..<(column * cellWidth) { pixels[y * width + x] = 0 }
        }
    }

    private mutating func dcs(_ body: [UInt8]) {
        let tmux = Array("tmux;".utf8)
        if body.starts(with: tmux) {
            var inner: [UInt8] = []
            var k = tmux.count
            while k < body.count {
                if body[k] == 0x1B {
                    guard k + 1 < body.count, body[k + 1] == 0x1B else { errors.append("undoubled ESC in tmux passthrough"); return }
                    k += 1
                }
                inner.append(body[k]); k += 1
            }
            feed(inner)
            return
        }
        guard let q = body.firstIndex(of: UInt8(ascii: "q")) else { errors.append("DCS that is not sixel"); return }
        let params = String(decoding: body[..<q], as: UTF8.self).split(separator: ";").map { Int($0) ?? 0 }
        if params.count < 2 || params[1] != 1 { errors.append("P2 is not 1: \(params)") }
        guard cursorKnown else { errors.append("sixel with the cursor unknown"); return }
        sixel(Array(body[(q + 1)...]))
        cursorKnown = false
    }
}
