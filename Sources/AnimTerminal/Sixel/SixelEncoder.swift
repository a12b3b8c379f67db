import AnimKit

/// Turns a rectangle of colour-register indices into one sixel image:
/// `DCS 0;1;0 q "1;1;W;H`, the colour data band by band, `ST`.
///
/// Per band of six rows only the registers present in it are drawn, each
/// from its first column to its last (trailing blank sixels are left out),
/// with runs of four or more equal sixels written `!n c`. `$` separates the
/// registers of a band and `-` the bands; none is written where nothing
/// follows. A register is defined (`#n;2;r;g;b`) at its first use in the
/// image, right before its first selection (`#n`); later uses only select.
/// The image defines every register it uses, because with private colour
/// registers (xterm's default) each image starts with a fresh set (the
/// VT340's 16 defaults, the rest black).
///
/// A definition does not select: in xterm only `#n` with no other
/// parameter changes the register drawn with, which starts as register 3
/// (the VT340's green) in every image. A definition written as if it also
/// selected draws that register's first band in the previously selected
/// colour: the green stripes and streaks xterm 379 showed
/// (`SixelBackendTests`, "a definition does not select").
///
/// Scratch memory (six rows of sixel bits per register) is kept between
/// images; not `Sendable`.
final class SixelEncoder {
    /// Marks a pixel that is not drawn (left as it is: transparent).
    static let none = UInt16.max

    private var bits: [UInt8] = []
    private var firstColumn: [Int] = []
    private var lastColumn: [Int] = []
    private var defined: [Bool] = []
    private var used: [Int] = []

    /// Appends the sixel image of `tile` within `indices` (rows `stride`
    /// wide, register numbers or `none`) to `out`; `colors[r]` is register
    /// r's colour, `0x??RRGGBB` already on the 0–100 % grid.
    func encode(_ indices: UnsafeBufferPointer<UInt16>, stride: Int, tile: Rect, colors: [UInt32], into out: inout [UInt8]) {
        let w = tile.width
        let h = tile.height
        prepare(width: w, registers: colors.count)
        out.append(contentsOf: Escape.sixelBegin)
        Self.appendDecimal(w, to: &out)
        out.append(UInt8(ascii: ";"))
        Self.appendDecimal(h, to: &out)
        bits.withUnsafeMutableBufferPointer { bits in
            var band = 0
            while band < h {
                collect(indices, stride: stride, x: tile.x, y: tile.y + band, rows: min(6, h - band), width: w, bits: bits)
                emitBand(bits: bits, width: w, colors: colors, into: &out)
                band += 6
                if band < h { out.append(UInt8(ascii: "-")) }
            }
        }
        out.append(contentsOf: Escape.stringTerminator)
    }

    /// Sizes the scratch arrays and forgets the previous image's definitions.
    private func prepare(width: Int, registers: Int) {
        if firstColumn.count < registers {
            firstColumn = [Int](repeating: .max, count: registers)
            lastColumn = [Int](repeating: -1, count: registers)
            defined = [Bool](repeating: false, count: registers)
        }
        if bits.count < width * registers { bits = [UInt8](repeating: 0, count: width * registers) }
        for r in defined.indices { defined[r] = false }
        used.removeAll(keepingCapacity: true)
    }

    /// Sets the sixel bits of `rows` rows from (x, y) for each register,
    /// noting the registers present and their first and last columns.
    private func collect(
        _ indices: UnsafeBufferPointer<UInt16>, stride: Int, x: Int, y: Int, rows: Int, width: Int,
        bits: UnsafeMutableBufferPointer<UInt8>
    ) {
        for dy in 0..<rows {
            let start = (y + dy) * stride + x
            let bit = UInt8(1) << UInt8(dy)
            var run = Int(Self.none)
            var runStart = 0
            for col in 0...width {
                let r = col < width ? Int(indices[start + col]) : Int(Self.none)
                if r != run {
                    if run != Int(Self.none) { note(run, from: runStart, to: col - 1) }
                    run = r
                    runStart = col
                }
                if r != Int(Self.none) { bits[r * width + col] |= bit }
            }
        }
    }

    @inline(__always)
    private func note(_ register: Int, from: Int, to: Int) {
        if firstColumn[register] == .max { used.append(register) }
        firstColumn[register] = min(firstColumn[register], from)
        lastColumn[register] = max(lastColumn[register], to)
    }

    /// Writes the band's registers one after the other and clears their bits.
    private func emitBand(bits: UnsafeMutableBufferPointer<UInt8>, width: Int, colors: [UInt32], into out: inout [UInt8]) {
        for (k, r) in used.enumerated() {
            if k > 0 { out.append(UInt8(ascii: "$")) }
            if !defined[r] {
                defined[r] = true
                out.append(UInt8(ascii: "#"))
                Self.appendDecimal(r, to: &out)
                appendDefinition(colors[r], to: &out)
            }
            out.append(UInt8(ascii: "#"))
            Self.appendDecimal(r, to: &out)
            let base = r * width
            var current: UInt8 = 0x3F
            var count = firstColumn[r]
            for col in firstColumn[r]...lastColumn[r] {
                let c = 0x3F + bits[base + col]
                bits[base + col] = 0
                if c == current {
                    count += 1
                    continue
                }
                Self.appendRun(current, count, to: &out)
                current = c
                count = 1
            }
            Self.appendRun(current, count, to: &out)
            firstColumn[r] = .max
            lastColumn[r] = -1
        }
        used.removeAll(keepingCapacity: true)
    }

    /// `;2;r;g;b` in percent.
    private func appendDefinition(_ color: UInt32, to out: inout [UInt8]) {
        for shift in [16, 8, 0] as [UInt32] {
            out.append(UInt8(ascii: ";"))
            if shift == 16 {
                out.append(UInt8(ascii: "2"))
                out.append(UInt8(ascii: ";"))
            }
            Self.appendDecimal(Int(SixelPercent.percent[Int((color >> shift) & 0xFF)]), to: &out)
        }
    }

    /// `count` sixels `c`: written out up to three, else `!count c`.
    @inline(__always)
    static func appendRun(_ c: UInt8, _ count: Int, to out: inout [UInt8]) {
        if count <= 0 { return }
        if count <= 3 {
            for _ in 0..<count { out.append(c) }
        } else {
            out.append(UInt8(ascii: "!"))
            appendDecimal(count, to: &out)
            out.append(c)
        }
    }

    /// The decimal digits of `value` (≥ 0), without going through `String`.
    @inline(__always)
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 10 {
            out.append(0x30 + UInt8(value))
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 {
                d[n] = 0x30 + UInt8(v % 10)
                v /= 10
                n += 1
            }
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(d[i]) }
        }
    }
}
