import AnimKit

/// Turns a rectangle of colour-register indices into one sixel image:
/// `DCS 0;1;0 q "1;1;W;H`, the colour data band by band, `ST`.
///
/// Per band of six rows only the registers present in it are drawn, each
/// from its first column to its last, runs of four or more equal sixels
/// written `!n c`. A register that starts after another ends follows it in
/// the same pass (`layOutPasses`); `$` separates passes, `-` bands.
///
/// Every register used is defined in the image (`#n;2;r;g;b`, right
/// before its first selection): with private colour registers (xterm's
/// default) each image starts with a fresh set. A definition does not
/// select: in xterm only a bare `#n` changes the register drawn with
/// (register 3, green, at the start), so a definition taken as a selection
/// drew green stripes (`SixelBackendTests`, "a definition does not select").
///
/// Scratch memory (six rows of sixel bits per register) is raw memory kept
/// between images and handed to the loops as pointers: as arrays in the
/// class every access paid an exclusivity check. A register's row of bits
/// is scanned eight columns at a time for blank sixels. Not `Sendable`.
final class SixelEncoder {
    /// Marks a pixel that is not drawn (left as it is: transparent).
    static let none = UInt16.max

    /// `prepare` sizes it and hands the loops a copy (the same pointers).
    private var memory = Scratch()
    private var bitsCapacity = 0
    private var columnCapacity = 0
    private var bandCapacity = 0

    deinit {
        for p in [memory.firstColumn, memory.lastColumn, memory.used, memory.passes, memory.endingAt] { p.deallocate() }
        memory.bits.deallocate()
        memory.band.deallocate()
        memory.defined.deallocate()
        memory.endBits.deallocate()
    }

    private struct Scratch {
        /// Per register `width` bytes of sixel bits (6 low bits).
        var bits = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
        /// Per register: first and last column drawn in this band
        /// (`Int32.max` and -1 when none), defined in this image, and the
        /// registers present in this band in order of first use.
        var firstColumn = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
        var lastColumn = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
        var defined = UnsafeMutablePointer<Bool>.allocate(capacity: 0)
        var used = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
        /// The band's passes (`layOutPasses`): the four arrays below.
        var passes = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
        /// Per column the last pass to end there (-1: none), and a bit
        /// where one does.
        var endingAt = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
        var endBits = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
        /// Room for the bytes of any band (`bandBound`).
        var band = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
        /// Registers the per-register memory holds.
        var registers = 0
        var width = 0
        var usedCount = 0

        /// Per pass: its first register, its last, and the next pass ending
        /// at the same column (-1: none).
        var passHead: UnsafeMutablePointer<Int32> { passes }
        var passTail: UnsafeMutablePointer<Int32> { passes + registers }
        var nextEndingWith: UnsafeMutablePointer<Int32> { passes + 2 * registers }
        /// Per register: the next register in its pass, -1 for none.
        var nextInPass: UnsafeMutablePointer<Int32> { passes + 3 * registers }
    }

    /// Appends the sixel image of `tile` within `indices` (rows `stride`
    /// wide, registers or `none`); `colors[r]`: register r's, on the grid.
    func encode(_ indices: UnsafeBufferPointer<UInt16>, stride: Int, tile: Rect, colors: [UInt32], into out: inout [UInt8]) {
        precondition(colors.count <= 1024, "at most 1024 registers (layOutPasses packs a number in 10 bits)")
        let w = tile.width
        let h = tile.height
        var scratch = prepare(width: w, registers: colors.count)
        out += Escape.sixelBegin + Array("\(w);\(h)".utf8)
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
        if memory.registers < registers {
            for p in [memory.firstColumn, memory.lastColumn, memory.used, memory.passes] { p.deallocate() }
            memory.defined.deallocate()
            memory.firstColumn = Self.filled(.max, registers)
            memory.lastColumn = Self.filled(-1, registers)
            memory.used = Self.filled(0, registers)
            memory.defined = .allocate(capacity: registers)
            memory.passes = Self.filled(-1, 4 * registers)
            memory.registers = registers
        }
        memory.defined.initialize(repeating: false, count: memory.registers)
        let need = width * memory.registers
        if bitsCapacity < need {
            memory.bits.deallocate()
            memory.bits = Self.filled(0, need)
            bitsCapacity = need
        }
        if columnCapacity < width {
            memory.endingAt.deallocate()
            memory.endBits.deallocate()
            memory.endingAt = Self.filled(-1, width)
            memory.endBits = Self.filled(0, (width + 63) / 64)
            columnCapacity = width
        }
        let bound = Self.bandBound(width: width, registers: memory.registers)
        if bandCapacity < bound {
            memory.band.deallocate()
            memory.band = .allocate(capacity: bound)
            bandCapacity = bound
        }
        memory.width = width
        memory.usedCount = 0
        return memory
    }

    private static func filled<T>(_ value: T, _ count: Int) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: count)
        p.initialize(repeating: value, count: count)
        return p
    }

    /// Sets the sixel bits of `rows` rows from (x, y), noting each
    /// register's columns.
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
        var w = ByteWriter(s.band)
        for p in 0..<passes {
            if p > 0 { w.byte(UInt8(ascii: "$")) }
            var column = 0
            var r = Int(s.passHead[p])
            while r >= 0 {
                if !s.defined[r] {
                    s.defined[r] = true
                    w.byte(UInt8(ascii: "#"))
                    w.decimal(r)
                    writeDefinition(colors[r], &w)
                }
                w.byte(UInt8(ascii: "#"))
                w.decimal(r)
                column = emitRegister(r, from: column, &s, &w)
                r = Int(s.nextInPass[r])
            }
        }
        assert(w.p - s.band <= bandBound(width: s.width, registers: s.usedCount), "past the band's bound")
        out.append(contentsOf: UnsafeBufferPointer(start: s.band, count: w.p - s.band))
        s.usedCount = 0
    }

    /// The most bytes a band can take: per register a definition and a
    /// selection (`#1023;2;100;100;100#1023`, 25) and a pass (`$` and at
    /// most a byte per column: a run `!4c` is 3).
    static func bandBound(width: Int, registers: Int) -> Int { registers * (width + 26) }

    /// Puts the band's registers into passes (each drawn from column 0
    /// after a `$`): by first column, then number, a register joins the
    /// pass ending nearest before its first column (a skip from there costs
    /// no more than a new pass), else starts one. Heads go to `passHead`,
    /// the rest is linked through `nextInPass` (-1 ends it). Returns the passes.
    private static func layOutPasses(_ s: inout Scratch) -> Int {
        let first = s.firstColumn
        let last = s.lastColumn
        // Sorted as first << 10 | register (registers < 1024).
        var used = UnsafeMutableBufferPointer(start: s.used, count: s.usedCount)
        for k in 0..<used.count { used[k] = first[Int(used[k])] << 10 | used[k] }
        used.sort()
        var passes = 0
        for k in 0..<used.count {
            let r = Int(used[k] & 1023)
            s.nextInPass[r] = -1
            let pass: Int
            if let column = lastEnd(before: Int(first[r]), s) {
                // r follows the pass that ends nearest before it.
                pass = Int(s.endingAt[column])
                s.endingAt[column] = s.nextEndingWith[pass]
                if s.endingAt[column] < 0 { s.endBits[column >> 6] &= ~(1 << UInt64(column & 63)) }
                s.nextInPass[Int(s.passTail[pass])] = Int32(r)
            } else {
                pass = passes
                passes += 1
                s.passHead[pass] = Int32(r)
            }
            s.passTail[pass] = Int32(r)
            let end = Int(last[r])
            s.nextEndingWith[pass] = s.endingAt[end]
            s.endingAt[end] = Int32(pass)
            s.endBits[end >> 6] |= 1 << UInt64(end & 63)
        }
        for p in 0..<passes {
            let end = Int(last[Int(s.passTail[p])])
            s.endingAt[end] = -1
            s.endBits[end >> 6] = 0
        }
        return passes
    }

    /// The last column before `column` where a pass ends (nil: none), 64
    /// columns a step.
    @inline(__always)
    private static func lastEnd(before column: Int, _ s: Scratch) -> Int? {
        guard column > 0 else { return nil }
        var w = (column - 1) >> 6
        let top = (column - 1) & 63
        var word = s.endBits[w] & (top == 63 ? ~0 : (1 << UInt64(top + 1)) - 1)
        while word == 0 {
            if w == 0 { return nil }
            w -= 1
            word = s.endBits[w]
        }
        return w << 6 + 63 - word.leadingZeroBitCount
    }

    /// Writes register r's sixels of the band from the sixel cursor at
    /// `column`, clears its bits and returns the column after its last.
    private static func emitRegister(_ r: Int, from column: Int, _ s: inout Scratch, _ w: inout ByteWriter) -> Int {
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
            w.run(current, count)
            current = c
            count = 1
        }
        w.run(current, count)
        s.firstColumn[r] = .max
        s.lastColumn[r] = -1
        return last + 1
    }

    /// `;2;r;g;b` in percent.
    private static func writeDefinition(_ color: UInt32, _ w: inout ByteWriter) {
        w.byte(UInt8(ascii: ";"))
        w.byte(UInt8(ascii: "2"))
        for shift in [16, 8, 0] as [UInt32] {
            w.byte(UInt8(ascii: ";"))
            w.decimal(Int(SixelPercent.percent[Int((color >> shift) & 0xFF)]))
        }
    }
}

extension ByteWriter {
    /// `count` sixels `c`: written out up to three, else `!count c`.
    @inline(__always)
    mutating func run(_ c: UInt8, _ count: Int) {
        if count <= 0 { return }
        if count <= 3 {
            for _ in 0..<count { byte(c) }
        } else {
            byte(UInt8(ascii: "!"))
            decimal(count)
            byte(c)
        }
    }
}
