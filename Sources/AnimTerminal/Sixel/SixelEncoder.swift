import AnimKit

/// Turns a rectangle of colour-register indices into one sixel image:
/// `DCS 0;1;0 q "1;1;W;H`, the colour data band by band, `ST`.
///
/// Per band of six rows only the registers present in it are drawn, each
/// from its first column to its last (trailing blank sixels are left out),
/// with runs of four or more equal sixels written `!n c`. A register that
/// starts after another ends follows it in the same pass over the band
/// (`layOutPasses`); `$` separates the passes and `-` the bands; none is
/// written where nothing follows. A register is defined (`#n;2;r;g;b`) at its first use in the
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
/// images, as raw memory owned by the encoder, handed to the loops as
/// pointers: as arrays in the class, every access in the per-pixel loops
/// paid an exclusivity check (8% of sixel mode's CPU on noise). A
/// register's row of bits is scanned eight columns at a time for blank
/// sixels, which most of it is when the band holds hundreds of colours.
/// Not `Sendable`.
final class SixelEncoder {
    /// Marks a pixel that is not drawn (left as it is: transparent).
    static let none = UInt16.max

    /// Per register `width` bytes of sixel bits (6 low bits); a row is
    /// read eight bytes at a time only within it.
    private var bits = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    private var bitsCapacity = 0
    /// Per register: first and last column drawn in this band (`Int32.max`
    /// and -1 when none), defined in this image, and the registers present
    /// in this band in order of first use.
    private var firstColumn = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    private var lastColumn = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    private var defined = UnsafeMutablePointer<Bool>.allocate(capacity: 0)
    private var used = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    /// The band's passes (`layOutPasses`), five `Int32`s per register:
    /// first, last and end column of each pass, passes by end column, and
    /// each register's successor in its pass.
    private var passes = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
    private var registerCapacity = 0

    deinit {
        bits.deallocate()
        firstColumn.deallocate()
        lastColumn.deallocate()
        defined.deallocate()
        used.deallocate()
        passes.deallocate()
    }

    /// The scratch memory of one image, as pointers.
    private struct Scratch {
        let bits: UnsafeMutablePointer<UInt8>
        let firstColumn: UnsafeMutablePointer<Int32>
        let lastColumn: UnsafeMutablePointer<Int32>
        let defined: UnsafeMutablePointer<Bool>
        let used: UnsafeMutablePointer<Int32>
        /// Per pass: its first register, its last, the last register's
        /// last column; the passes in order of that column.
        let passHead: UnsafeMutablePointer<Int32>
        let passTail: UnsafeMutablePointer<Int32>
        let passEnd: UnsafeMutablePointer<Int32>
        let passByEnd: UnsafeMutablePointer<Int32>
        /// Per register: the next register in its pass, -1 for none.
        let nextInPass: UnsafeMutablePointer<Int32>
        let width: Int
        /// Registers in `used`.
        var usedCount = 0
    }

    /// Appends the sixel image of `tile` within `indices` (rows `stride`
    /// wide, register numbers or `none`) to `out`; `colors[r]` is register
    /// r's colour, `0x??RRGGBB` already on the 0–100 % grid.
    func encode(_ indices: UnsafeBufferPointer<UInt16>, stride: Int, tile: Rect, colors: [UInt32], into out: inout [UInt8]) {
        let w = tile.width
        let h = tile.height
        var scratch = prepare(width: w, registers: colors.count)
        out.append(contentsOf: Escape.sixelBegin)
        Self.appendDecimal(w, to: &out)
        out.append(UInt8(ascii: ";"))
        Self.appendDecimal(h, to: &out)
        colors.withUnsafeBufferPointer { colors in
            var band = 0
            while band < h {
                Self.collect(
                    indices, stride: stride, x: tile.x, y: tile.y + band, rows: min(6, h - band), scratch: &scratch)
                Self.emitBand(&scratch, colors: colors, into: &out)
                band += 6
                if band < h { out.append(UInt8(ascii: "-")) }
            }
        }
        out.append(contentsOf: Escape.stringTerminator)
    }

    /// Sizes the scratch memory and forgets the previous image's definitions.
    private func prepare(width: Int, registers: Int) -> Scratch {
        if registerCapacity < registers {
            for p in [firstColumn, lastColumn, used, passes] { p.deallocate() }
            defined.deallocate()
            firstColumn = .allocate(capacity: registers)
            firstColumn.initialize(repeating: .max, count: registers)
            lastColumn = .allocate(capacity: registers)
            lastColumn.initialize(repeating: -1, count: registers)
            used = .allocate(capacity: registers)
            used.initialize(repeating: 0, count: registers)
            defined = .allocate(capacity: registers)
            passes = .allocate(capacity: 5 * registers)
            passes.initialize(repeating: -1, count: 5 * registers)
            registerCapacity = registers
        }
        defined.initialize(repeating: false, count: registerCapacity)
        let need = width * registerCapacity
        if bitsCapacity < need {
            bits.deallocate()
            bits = .allocate(capacity: need)
            bits.initialize(repeating: 0, count: need)
            bitsCapacity = need
        }
        let c = registerCapacity
        return Scratch(
            bits: bits, firstColumn: firstColumn, lastColumn: lastColumn, defined: defined, used: used,
            passHead: passes, passTail: passes + c, passEnd: passes + 2 * c, passByEnd: passes + 3 * c,
            nextInPass: passes + 4 * c, width: width)
    }

    /// Sets the sixel bits of `rows` rows from (x, y) for each register,
    /// noting the registers present and their first and last columns.
    private static func collect(
        _ indices: UnsafeBufferPointer<UInt16>, stride: Int, x: Int, y: Int, rows: Int, scratch s: inout Scratch
    ) {
        let width = s.width
        for dy in 0..<rows {
            let start = (y + dy) * stride + x
            let bit = UInt8(1) << UInt8(dy)
            var run = Int(none)
            var runStart = 0
            for col in 0...width {
                let r = col < width ? Int(indices[start + col]) : Int(none)
                if r != run {
                    if run != Int(none) { note(run, from: runStart, to: col - 1, &s) }
                    run = r
                    runStart = col
                }
                if r != Int(none) { s.bits[r * width + col] |= bit }
            }
        }
    }

    @inline(__always)
    private static func note(_ register: Int, from: Int, to: Int, _ s: inout Scratch) {
        if s.firstColumn[register] == .max {
            s.used[s.usedCount] = Int32(register)
            s.usedCount += 1
        }
        s.firstColumn[register] = min(s.firstColumn[register], Int32(from))
        s.lastColumn[register] = max(s.lastColumn[register], Int32(to))
    }

    /// Writes the band's registers pass by pass and clears their bits.
    private static func emitBand(_ s: inout Scratch, colors: UnsafeBufferPointer<UInt32>, into out: inout [UInt8]) {
        let passes = layOutPasses(&s)
        for p in 0..<passes {
            if p > 0 { out.append(UInt8(ascii: "$")) }
            var column = 0
            var r = Int(s.passHead[p])
            while r >= 0 {
                if !s.defined[r] {
                    s.defined[r] = true
                    out.append(UInt8(ascii: "#"))
                    appendDecimal(r, to: &out)
                    appendDefinition(colors[r], to: &out)
                }
                out.append(UInt8(ascii: "#"))
                appendDecimal(r, to: &out)
                column = emitRegister(r, from: column, &s, into: &out)
                r = Int(s.nextInPass[r])
            }
        }
        s.usedCount = 0
    }

    /// Puts the band's registers into passes (each drawn from column 0
    /// after a `$`): a register joins the pass whose last register ends
    /// nearest before its first column, since selecting a register does
    /// not move the sixel cursor; else it starts a pass. Registers taken
    /// by first column (then number, so that the bytes are reproducible). The pass heads go to `passHead`, the rest of each
    /// pass is linked through `nextInPass` (-1 ends it). Returns the passes.
    ///
    /// A pass costs `$` and a skip from column 0; joining one costs the
    /// skip from its end, never more. Where colours lie side by side (a
    /// gradient: tens of registers to a band, each over a few columns)
    /// this takes out most of the skips and returns (a quarter of the
    /// bytes); where every colour spans the band (noise) each keeps its pass.
    private static func layOutPasses(_ s: inout Scratch) -> Int {
        let first = s.firstColumn
        let last = s.lastColumn
        var used = UnsafeMutableBufferPointer(start: s.used, count: s.usedCount)
        used.sort { (first[Int($0)], $0) < (first[Int($1)], $1) }
        // Pass numbers in order of their end column.
        let byEnd = s.passByEnd
        var passes = 0
        for k in 0..<used.count {
            let r = Int(used[k])
            s.nextInPass[r] = -1
            // Passes ending before r's first column: byEnd[0..<fit].
            var lo = 0
            var hi = passes
            while lo < hi {
                let mid = (lo + hi) / 2
                if s.passEnd[Int(byEnd[mid])] < first[r] { lo = mid + 1 } else { hi = mid }
            }
            if lo == 0 {
                // A new pass, ending at r's last column: in its place from the right.
                let pass = passes
                passes += 1
                s.passHead[pass] = Int32(r)
                s.passTail[pass] = Int32(r)
                s.passEnd[pass] = last[r]
                var at = pass
                while at > 0, s.passEnd[Int(byEnd[at - 1])] > last[r] {
                    byEnd[at] = byEnd[at - 1]
                    at -= 1
                }
                byEnd[at] = Int32(pass)
            } else {
                // r ends the pass that ends nearest before it: the pass moves right.
                let pass = Int(byEnd[lo - 1])
                s.nextInPass[Int(s.passTail[pass])] = Int32(r)
                s.passTail[pass] = Int32(r)
                s.passEnd[pass] = last[r]
                var at = lo - 1
                while at + 1 < passes, s.passEnd[Int(byEnd[at + 1])] < last[r] {
                    byEnd[at] = byEnd[at + 1]
                    at += 1
                }
                byEnd[at] = Int32(pass)
            }
        }
        return passes
    }

    /// Writes register r's sixels of the band, from the sixel cursor at
    /// `column` (blank sixels up to its first column), clears its bits and
    /// returns the column after its last.
    private static func emitRegister(_ r: Int, from column: Int, _ s: inout Scratch, into out: inout [UInt8]) -> Int {
        let row = s.bits + r * s.width
        let first = Int(s.firstColumn[r])
        let last = Int(s.lastColumn[r])
        var current: UInt8 = 0x3F
        var count = first - column
        var col = first
        while col <= last {
            // Eight blank sixels at once, all within the register's columns.
            if current == 0x3F, col + 8 <= last + 1,
                UnsafeRawPointer(row + col).loadUnaligned(as: UInt64.self) == 0
            {
                count += 8
                col += 8
                continue
            }
            let c = 0x3F + row[col]
            row[col] = 0
            col += 1
            if c == current {
                count += 1
                continue
            }
            appendRun(current, count, to: &out)
            current = c
            count = 1
        }
        appendRun(current, count, to: &out)
        s.firstColumn[r] = .max
        s.lastColumn[r] = -1
        return last + 1
    }

    /// `;2;r;g;b` in percent.
    private static func appendDefinition(_ color: UInt32, to out: inout [UInt8]) {
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
