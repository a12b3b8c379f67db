/// Writes the GIF file's records as the writer decides them: screen
/// descriptor, loop block, metadata, graphic control extensions and
/// images, LZW-compressed by `GIFLZWEncoder`. What comes before an image
/// goes to the sink with it, so a file target gets one large write per
/// frame.
final class GIFEncoder {
    /// What a frame does to its rectangle once shown (GIF89a disposal methods 1, 2 and 3).
    enum Disposal: UInt8 {
        case keep = 1
        case clearToTransparent = 2
        case restorePrevious = 3
    }

    /// Where the file goes.
    let sink: OutputSink
    /// Bytes not yet given to the sink.
    private var buffer: [UInt8] = []
    /// The global colour table, once written.
    private(set) var global: GIFPalette?
    /// For every image written: the global table's (written) indices it
    /// uses, transparency aside, or nil when it has a palette of its own;
    /// and the bytes written for it (for `GIFReorder`).
    private(set) var usage: [(indices: GIFIndexSet?, bytes: Int)] = []

    init(sink: OutputSink) { self.sink = sink }

    /// The header, logical screen descriptor (8 bits of colour resolution)
    /// and global colour table; the background index points at the
    /// palette's transparent entry.
    func writeScreen(width: Int, height: Int, palette: GIFPalette) {
        global = palette
        buffer += Array("GIF89a".utf8) + Self.littleEndian(width) + Self.littleEndian(height)
        buffer += [0xF0 | UInt8(palette.bitsPerPixel - 1), 0, 0] + Self.tableBytes(palette)
    }

    /// The NETSCAPE2.0 application extension with `loops` (0: forever).
    func writeLoop(_ loops: Int) {
        buffer += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + Self.littleEndian(loops) + [0]
    }

    /// The metadata GIF can hold, before the first image: each text entry
    /// as a comment extension, the ICC profile as the `ICCRGBG1012`
    /// application extension (in sub-blocks), the XMP packet as Adobe's
    /// `XMP DataXMP`: the packet's bytes as they are, then the 258-byte
    /// "magic trailer" that brings a reader walking sub-blocks to the end.
    /// EXIF has no place in GIF and is not written.
    func writeMetadata(_ m: ImageMetadata) {
        for entry in m.text {
            buffer += [0x21, 0xFE]
            GIFLZWEncoder.appendSubBlocks(Array(ImageMetadata.gifComment(entry).utf8), to: &buffer)
        }
        if let icc = m.iccProfile, !icc.isEmpty {
            buffer += [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8)
            GIFLZWEncoder.appendSubBlocks(icc, to: &buffer)
        }
        if let xmp = m.xmp, !xmp.isEmpty {
            buffer += [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + Array(xmp.utf8)
            buffer += [1] + (0...255).reversed().map { UInt8($0) } + [0]
        }
    }

    /// One frame: its graphic control extension (unless `control` is
    /// false: a still that needs none), then the image record
    /// (`palette` nil: the global colour table). `indices` holds
    /// `rect.width * rect.height` palette indices, row by row; they are
    /// rewritten to the written table's order.
    func writeImage(
        rect: Rect, delay: Int, disposal: Disposal, transparentIndex: Int?,
        palette: GIFPalette?, indices: UnsafeMutableBufferPointer<UInt8>, control: Bool = true
    ) throws {
        // The table written puts the transparent entry first (see `written`).
        let table = palette ?? global
        var largest = 0
        if let table {
            for i in 0..<indices.count {
                let w = Self.written(Int(indices[i]), table)
                indices[i] = UInt8(w)
                largest = max(largest, w)
            }
        }
        let start = sink.offset + buffer.count
        var transparent = -1
        if let t = transparentIndex { transparent = table.map { Self.written(t, $0) } ?? t }
        var used: GIFIndexSet?
        if palette == nil {
            used = GIFIndexSet(UnsafeBufferPointer(indices))
            if global?.transparentIndex != nil { used!.remove(0) }
            if transparent >= 0 { used!.remove(transparent) }
        }
        // A frame drawn from the global table with few of its entries may
        // be smaller with a local table of just those (shorter LZW codes,
        // the table's bytes counted): the smaller is written.
        var palette = palette
        var data: [UInt8]?
        if palette == nil, let table,
            let compact = Self.compactTable(
                indices, table, largest: largest, keepTransparent: transparent >= 0,
                alsoKeep: table.transparentIndex == nil && transparent >= 0 ? transparent : nil)
        {
            let full = GIFLZWEncoder.encode(UnsafeBufferPointer(indices), bitsPerPixel: max(Self.bits(largest), 2))
            if compact.bytes < full.count - 1 {
                palette = compact.palette
                transparent = transparent >= 0 ? Int(compact.remap[transparent]) : -1
                data = compact.data
            } else {
                data = full
            }
        }
        if control {  // without it: no delay, no disposal, no transparency (index 255 when none)
            let packed = disposal.rawValue << 2 | (transparent >= 0 ? 1 : 0)
            buffer += [0x21, 0xF9, 4, packed] + Self.littleEndian(delay) + [UInt8(truncatingIfNeeded: transparent), 0]
        }
        // LZW codes are as narrow as the indices used allow: later frames
        // of a screen recording often use a few low indices, and 4-bit
        // codes beat 8-bit ones.
        precondition(indices.count == rect.width * rect.height, "GIFEncoder: index buffer size")
        var record: [UInt8] = [0x2C]
        for v in [rect.x, rect.y, rect.width, rect.height] { record += Self.littleEndian(v) }
        let bits: Int
        if let palette {
            record.append(0x80 | UInt8(palette.bitsPerPixel - 1))
            record += Self.tableBytes(palette)
            bits = palette.bitsPerPixel
        } else {
            record.append(0)
            bits = max(Self.bits(largest), 2)
        }
        buffer += record
        buffer += data ?? GIFLZWEncoder.encode(UnsafeBufferPointer(indices), bitsPerPixel: bits)
        try flush()
        usage.append((used, sink.offset - start))
    }

    /// Writes the trailer.
    func close() throws {
        buffer.append(0x3B)
        try flush()
    }

    private func flush() throws {
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// A 16-bit field, as GIF stores them.
    private static func littleEndian(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    /// Bits for indices up to `largest`.
    static func bits(_ largest: Int) -> Int {
        var bits = 1
        while 1 << bits <= largest { bits += 1 }
        return bits
    }

    /// A local table of only the (written) indices `indices` uses, when
    /// they are at most 128: the table, the remapping, the image data
    /// record (`GIFLZWEncoder.encode`) and the bytes (LZW data plus the table).
    static func compactTable(
        _ indices: UnsafeMutableBufferPointer<UInt8>, _ table: GIFPalette, largest: Int,
        keepTransparent: Bool, alsoKeep: Int? = nil
    ) -> (palette: GIFPalette, remap: [UInt8], data: [UInt8], bytes: Int)? {
        guard largest >= 16 else { return nil }
        var used = [Bool](repeating: false, count: 256)
        var count = 0
        // An entry lent for transparency (`GIFPalette.transparentInPlace`)
        // stays even when no pixel names it.
        if let k = alsoKeep {
            used[k] = true
            count = 1
        }
        for i in indices where !used[Int(i)] {
            used[Int(i)] = true
            count += 1
            if count > 128 { return nil }
        }
        // The compact table's colours, and the new index of each old one.
        var colors: [UInt32] = []
        var remap = [UInt8](repeating: 0, count: 256)
        // The transparent entry stays when the frame names it, used or not.
        let transparent = table.transparentIndex != nil && (used[0] || keepTransparent)
        if transparent { used[0] = true }
        for w in 0..<256 where used[w] && (table.transparentIndex == nil || w > 0) {
            let p = table.transparentIndex == nil ? w : w - 1
            guard p < table.colors.count else { return nil }
            // As `written` has it: after the transparent entry, which stays 0.
            remap[w] = UInt8(colors.count + (transparent ? 1 : 0))
            colors.append(table.colors[p])
        }
        let compact = GIFPalette(colors: colors, transparent: transparent)
        let remapped = indices.map { remap[Int($0)] }
        let data = remapped.withUnsafeBufferPointer { GIFLZWEncoder.encode($0, bitsPerPixel: compact.bitsPerPixel) }
        return (compact, remap, data, data.count - 1 + 3 * compact.tableSize)
    }

    /// The index written for palette index `i`: a table with a transparent
    /// entry is written with it first (index 0), the colours after it, so
    /// that frames drawing a few colours over transparency use low indices.
    static func written(_ i: Int, _ palette: GIFPalette) -> Int {
        guard let t = palette.transparentIndex, !palette.transparentInPlace else { return i }
        return i == t ? 0 : i + 1
    }

    /// The palette's table as written: RGB triples in written order
    /// (transparent entry black, padding black).
    static func tableBytes(_ palette: GIFPalette) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 3 * palette.tableSize)
        for (i, c) in palette.colors.enumerated() {
            let w = 3 * written(i, palette)
            bytes[w] = UInt8((c >> 16) & 0xFF)
            bytes[w + 1] = UInt8((c >> 8) & 0xFF)
            bytes[w + 2] = UInt8(c & 0xFF)
        }
        return bytes
    }
}
