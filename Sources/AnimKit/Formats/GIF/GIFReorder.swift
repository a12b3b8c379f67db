/// The last pass of the GIF writer, on outputs that can be read back: the
/// global colour table is reordered (`GIFPaletteOrder`) once every frame
/// is known, and the frames drawn from it are rewritten with the new
/// indices, in place. The table is chosen from frame 0 and ordered before
/// the later frames are seen; most later frames of a screen recording
/// redraw a few colours, and with those first their LZW codes are 2–3
/// bits shorter. Frames drawn from the table (directly, or through a
/// compact local table of its entries) are each written the smallest of
/// three ways: from the new global table, through a compact local table
/// made from it, or as they were. Frames with local palettes of their own
/// are copied. Memory: one frame's indices, and the bytes by which the
/// output has grown, if it grows (it shrinks).
struct GIFReorder {
    let sink: OutputSink
    /// The global table as written (transparent entry first, see `GIFEncoder.written`).
    let global: GIFPalette
    /// For every image record in order: the written global indices it
    /// uses, or nil when it has a palette of its own; and its size in bytes.
    let usage: [(indices: GIFIndexSet?, bytes: Int)]

    /// Rewrites the output when reordering shortens the codes of its
    /// frames; false when it is left as it was.
    func run() throws -> Bool {
        guard sink.canReadBack, sink.canPatch else { return false }
        // A table without a transparent entry (its frames name one they
        // do not use) is reordered whole; else the entry stays first.
        let first = global.transparentIndex != nil ? 1 : 0
        let count = global.colors.count
        let needs = usage.compactMap { $0.indices }
        guard count > 2, needs.contains(where: { ($0.largest ?? 0) > 1 }),
            needs.allSatisfy({ ($0.largest ?? 0) < first + count })
        else { return false }
        let drawn = usage.filter { $0.indices != nil }
        // Two orders, gifsicle's (every frame counts alike) and one where a
        // frame counts for the bits narrower codes would save it; the one
        // whose code widths save more bits in all is kept. Screen
        // recordings differ: a large frame redrawn once, or small ones
        // (a cursor, a spinner) redrawn a hundred times.
        var best: (newIndex: [Int], saved: Int)?
        for weights in [drawn.map { GIFPaletteOrder.weight(bytes: $0.bytes) }, drawn.map { _ in 1.0 }] {
            var newIndex = Array(0...255)
            for (i, p) in GIFPaletteOrder.positions(first: first, count: count, needs: needs, weights: weights).enumerated() {
                newIndex[first + i] = p
            }
            var saved = 0
            for (set, frame) in zip(needs, drawn) {
                let old = max(GIFEncoder.bits(set.largest ?? 0), 2)
                let new = max(GIFEncoder.bits(set.elements.map { newIndex[$0] }.max() ?? 0), 2)
                saved += GIFPaletteOrder.saved(bytes: frame.bytes, from: old, to: new)
            }
            if saved > best?.saved ?? 0 { best = (newIndex, saved) }
        }
        guard let newIndex = best?.newIndex else { return false }
        var colors = [UInt32](repeating: 0, count: count)
        for i in 0..<count { colors[newIndex[i + first] - first] = global.colors[i] }
        try Rewriter(
            sink: sink, old: global, new: GIFPalette(colors: colors, transparent: first == 1),
            newIndex: newIndex.map { UInt8($0) }, usage: usage.map { $0.indices }
        ).run()
        return true
    }
}

/// One pass over the file, block by block.
private struct Rewriter {
    let sink: OutputSink
    let old: GIFPalette, new: GIFPalette
    let newIndex: [UInt8]
    let usage: [GIFIndexSet?]

    func run() throws {
        let io = InPlaceRewrite(sink)
        let screen = try io.copy(13)
        guard screen[10] & 0x80 != 0, 2 << Int(screen[10] & 7) == old.tableSize else { throw broken(io, .noGlobalTable) }
        _ = try io.take(3 * old.tableSize)
        try io.put(GIFEncoder.tableBytes(new))
        var image = 0
        // A graphic control extension held for its image, and where it was.
        var control: (bytes: [UInt8], from: Int)?
        while true {
            let from = io.position
            let introducer = try io.take(1)[0]
            if introducer != 0x2C, let c = control {
                try io.put(c.bytes, unchangedFrom: c.from)
                control = nil
            }
            switch introducer {
            case 0x21:
                let label = try io.take(1)[0]
                let blocks = try subBlocks(io)
                if label == 0xF9 {
                    control = ([0x21, 0xF9] + blocks, from)
                } else {
                    try io.put([0x21, label] + blocks, unchangedFrom: from)
                }
            case 0x2C:
                guard image < usage.count else { throw broken(io, .moreImagesThanWritten) }
                try rewriteImage(io, from: from, control: control, usage: usage[image], frame: image)
                control = nil
                image += 1
            case 0x3B:
                try io.put([0x3B], unchangedFrom: from)
                try io.finish()
                return
            default:
                throw broken(io, .unknownBlock(introducer))
            }
        }
    }

    private func rewriteImage(
        _ io: InPlaceRewrite, from: Int, control held: (bytes: [UInt8], from: Int)?,
        usage: GIFIndexSet?, frame: Int
    ) throws {
        let descriptor = try io.take(9)
        let packed = descriptor[8]
        let local = packed & 0x80 != 0 ? try io.take(3 * (2 << Int(packed & 7))) : nil
        let codeSize = try io.take(1)
        let data = try subBlocks(io)
        let original = {
            if let held { try io.put(held.bytes, unchangedFrom: held.from) }
            var record: [UInt8] = [0x2C]
            record += descriptor
            record += local ?? []
            record += codeSize
            record += data
            try io.put(record, unchangedFrom: from)
        }
        guard usage != nil else {
            try original()
            return
        }
        let width = Int(descriptor[4]) | Int(descriptor[5]) << 8
        let height = Int(descriptor[6]) | Int(descriptor[7]) << 8
        var indices = try decode(codeSize + data, width: width, height: height, io: io, frame: frame)
        let transparent = held.flatMap { $0.bytes }.flatMap { $0[3] & 1 != 0 ? Int($0[6]) : nil }
        // Old indices (global, or of the local table) to new global ones.
        var map = [UInt8](repeating: 0, count: 256)
        let first = old.transparentIndex != nil ? 1 : 0
        let used = indices.withUnsafeBufferPointer { GIFIndexSet($0) }
        if let local {
            for w in used.elements where w != transparent {
                guard 3 * w + 2 < local.count else { throw broken(io, .indexPastLocalTable) }
                guard let p = old.exactIndex(GIFFrameDiff.key(local[3 * w], local[3 * w + 1], local[3 * w + 2], 255)) else {
                    try original()
                    return
                }
                map[w] = newIndex[p + first]
            }
        } else {
            map = newIndex
        }
        if let t = transparent {
            if first == 1 {
                map[t] = 0
            } else {
                // A table without a transparent entry: the first entry the
                // frame does not use now (gifsicle's choice: low indices
                // keep the codes narrow).
                var taken = GIFIndexSet()
                for w in used.elements where w != t { taken.insert(Int(map[w])) }
                guard let free = (0..<new.tableSize).first(where: { !taken.contains($0) }) else {
                    try original()
                    return
                }
                map[t] = UInt8(free)
            }
        }
        var largest = 0
        for i in 0..<indices.count {
            indices[i] = map[Int(indices[i])]
            largest = max(largest, Int(indices[i]))
        }
        let globalBits = max(GIFEncoder.bits(largest), 2)
        let globalData = indices.withUnsafeBufferPointer { GIFLZWEncoder.encode($0, bitsPerPixel: globalBits) }
        let globalBytes = globalData.count - 1
        let compact = indices.withUnsafeMutableBufferPointer {
            GIFEncoder.compactTable(
                $0, new, largest: largest, keepTransparent: transparent != nil,
                alsoKeep: first == 0 ? transparent.map { Int(map[$0]) } : nil)
        }
        let originalBytes = local.map { $0.count + data.count } ?? Int.max
        if originalBytes <= min(globalBytes, compact?.bytes ?? Int.max) {
            try original()
            return
        }
        // Written from the new global table, or through a compact local one.
        let viaCompact = compact.map { $0.bytes < globalBytes } ?? false
        let remap: (Int) -> UInt8 = { viaCompact ? compact!.remap[Int(map[$0])] : map[$0] }
        let bits = viaCompact ? compact!.palette.bitsPerPixel : globalBits
        if var control = held?.bytes {
            if let t = transparent { control[6] = remap(t) }  // its transparent index may change
            try io.put(control)
        }
        var head: [UInt8] = [0x2C]
        head += descriptor.prefix(8)
        if viaCompact {
            head.append(packed & 0x40 | 0x80 | UInt8(bits - 1))
            head += GIFEncoder.tableBytes(compact!.palette)
        } else {
            head.append(packed & 0x40)
        }
        try io.put(head)
        try io.put(viaCompact ? compact!.data : globalData)
    }

    /// Data sub-blocks up to and including the terminator, as they are.
    private func subBlocks(_ io: InPlaceRewrite) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let n = try io.take(1)[0]
            bytes.append(n)
            if n == 0 { return bytes }
            bytes += try io.take(Int(n))
        }
    }

    private func decode(_ record: [UInt8], width: Int, height: Int, io: InPlaceRewrite, frame: Int) throws -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: width * height)
        let valid = record.withUnsafeBytes { raw in
            indices.withUnsafeMutableBufferPointer { out in
                out.isEmpty ? 0 : GIFLZWDecoder.decode(raw, offset: 0, end: raw.count, into: out.baseAddress!, count: out.count)
            }
        }
        // An image of empty rows does not decode; one of no rows does.
        guard valid == indices.count, width > 0 || height == 0 else {
            throw AnimError(
                file: sink.name, frame: frame, offset: io.position, GIFProblem.rewriting(.imageDataDoesNotDecode))
        }
        return indices
    }

    private func broken(_ io: InPlaceRewrite, _ what: GIFProblem.Rewrite) -> AnimError {
        AnimError(file: sink.name, offset: io.position, GIFProblem.rewriting(what))
    }
}
