import CGIF

// The only file that imports giflib: the decoder's row reading (an
// extension of `GIFDecoder`) and the writer's encoder (`GIFLibEncoder`).
// Everything else in `Formats/GIF` is plain Swift.

extension GIFDecoder {
    /// The stream giflib reads: `bytes[0..<prefix]` then `bytes[start..<end]`.
    fileprivate struct GIFLibStream {
        var base: UnsafePointer<UInt8>
        var prefix: Int
        var start: Int
        var end: Int
        var position = 0
    }

    fileprivate static let read: InputFunc = { gif, buffer, wanted in
        guard let gif, let buffer, wanted > 0,
            let stream = gif.pointee.UserData?.assumingMemoryBound(to: GIFLibStream.self)
        else { return 0 }
        var copied = 0
        let want = Int(wanted)
        while copied < want {
            let p = stream.pointee.position
            let from: Int
            let available: Int
            if p < stream.pointee.prefix {
                from = p
                available = stream.pointee.prefix - p
            } else {
                from = stream.pointee.start + (p - stream.pointee.prefix)
                available = stream.pointee.end - from
            }
            if available <= 0 { break }
            let n = min(available, want - copied)
            (buffer + copied).update(from: stream.pointee.base + from, count: n)
            copied += n
            stream.pointee.position += n
        }
        return Int32(copied)
    }

    /// `image`'s colour indices in stored order as giflib decodes them, or
    /// nil when giflib gives up on it: the oracle that `GIFLZWDecoder` is
    /// tested against. giflib reads `bytes[0..<header]` (the file's header,
    /// screen descriptor and global table), then the image's bytes only.
    static func giflibIndices(_ bytes: UnsafeRawBufferPointer, header: Int, image: GIFImageRecord) -> [UInt8]? {
        guard image.rect.width > 0, image.rect.height > 0 else { return [] }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let stream = UnsafeMutablePointer<GIFLibStream>.allocate(capacity: 1)
        stream.initialize(
            to: GIFLibStream(
                base: base, prefix: header, start: image.descriptorOffset, end: image.dataEnd))
        defer { stream.deallocate() }
        var error: Int32 = 0
        guard let gif = DGifOpen(stream, Self.read, &error) else { return nil }
        defer {
            var e: Int32 = 0
            DGifCloseFile(gif, &e)
        }
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &type) == GIF_OK, type == IMAGE_DESC_RECORD_TYPE,
            DGifGetImageDesc(gif) == GIF_OK
        else { return nil }
        var out = [UInt8](repeating: 0, count: image.rect.width * image.rect.height)
        let ok = out.withUnsafeMutableBufferPointer { buf in
            for r in 0..<image.rect.height {
                if DGifGetLine(gif, buf.baseAddress! + r * image.rect.width, Int32(image.rect.width)) != GIF_OK { return false }
            }
            return true
        }
        return ok ? out : nil
    }
}

/// The giflib side of the GIF writer: screen descriptor, loop block,
/// graphic control extensions and LZW-compressed images, streamed to the
/// sink.
///
/// giflib writes through an output callback in small pieces; they are
/// collected in a buffer handed to the sink at the end of each record (or
/// every 256 KiB), so a file target gets a few large writes per frame. A
/// sink error is kept and thrown once giflib reports the failed write.
final class GIFLibEncoder {
    /// What a frame does to its rectangle once shown (GIF89a disposal methods 1, 2 and 3).
    enum Disposal: Int32 {
        case keep = 1
        case clearToTransparent = 2
        case restorePrevious = 3
    }

    /// Where the file goes.
    let sink: OutputSink
    private let output: Output
    /// The global colour table, once written.
    private(set) var global: GIFPalette?
    /// For every image written: the global table's (written) indices it
    /// uses, transparency aside, or nil when it has a palette of its own;
    /// and the bytes written for it (for `GIFReorder`).
    private(set) var usage: [(indices: GIFIndexSet?, bytes: Int)] = []
    private var gif: UnsafeMutablePointer<GifFileType>?

    /// The callback's state: bytes not yet given to the sink, and the first sink error.
    private final class Output {
        let sink: OutputSink
        var buffer: [UInt8] = []
        var error: Error?
        /// Set when the file is abandoned: giflib's closing bytes go nowhere.
        var discard = false
        init(sink: OutputSink) {
            self.sink = sink
            buffer.reserveCapacity(Output.flushSize)
        }
        static let flushSize = 256 << 10

        func flush() throws {
            if let error { throw error }
            guard !buffer.isEmpty, !discard else {
                buffer.removeAll(keepingCapacity: true)
                return
            }
            defer { buffer.removeAll(keepingCapacity: true) }
            do { try sink.write(buffer) } catch {
                self.error = error
                throw error
            }
        }
    }

    private static let write: OutputFunc = { gif, bytes, count in
        guard let gif, let bytes, count > 0, let user = gif.pointee.UserData else { return 0 }
        let output = Unmanaged<Output>.fromOpaque(user).takeUnretainedValue()
        if output.discard { return count }
        if output.error != nil { return 0 }
        output.buffer.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
        if output.buffer.count >= Output.flushSize {
            do { try output.flush() } catch { return 0 }
        }
        return count
    }

    init(sink: OutputSink) throws {
        self.sink = sink
        output = Output(sink: sink)
        var code: Int32 = 0
        guard let gif = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), GIFLibEncoder.write, &code) else {
            throw Self.error(sink.name, frame: nil, code: code, doing: "EGifOpen")
        }
        self.gif = gif
        EGifSetGifVersion(gif, true)
    }

    deinit {
        if let gif {
            output.discard = true
            EGifCloseFile(gif, nil)
        }
    }

    /// The header, logical screen descriptor and global colour table;
    /// the background index points at the palette's transparent entry.
    func writeScreen(width: Int, height: Int, palette: GIFPalette) throws {
        let gif = try handle(frame: 0)
        global = palette
        let status = withColorMap(palette) { map in
            EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map)
        }
        try check(status, frame: 0, doing: "EGifPutScreenDesc")
    }

    /// The NETSCAPE2.0 application extension with `loops` (0: forever).
    func writeLoop(_ loops: Int) throws {
        let gif = try handle(frame: 0)
        let name = Array("NETSCAPE2.0".utf8)
        let value: [UInt8] = [1, UInt8(loops & 0xFF), UInt8((loops >> 8) & 0xFF)]
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), frame: 0, doing: "EGifPutExtensionLeader")
        try check(EGifPutExtensionBlock(gif, Int32(name.count), name), frame: 0, doing: "EGifPutExtensionBlock")
        try check(EGifPutExtensionBlock(gif, Int32(value.count), value), frame: 0, doing: "EGifPutExtensionBlock")
        try check(EGifPutExtensionTrailer(gif), frame: 0, doing: "EGifPutExtensionTrailer")
    }

    /// The metadata GIF can hold, before the first image: each text entry
    /// as a comment extension, the ICC profile as the `ICCRGBG1012`
    /// application extension (in sub-blocks), the XMP packet as Adobe's
    /// `XMP DataXMP`: the packet's bytes as they are, then the 258-byte
    /// "magic trailer" that brings a reader walking sub-blocks to the end.
    /// EXIF has no place in GIF and is not written.
    func writeMetadata(_ m: ImageMetadata) throws {
        let gif = try handle(frame: 0)
        func blocks(_ bytes: [UInt8]) throws {
            var at = 0
            while at < bytes.count {
                let n = min(255, bytes.count - at)
                try Array(bytes[at..<(at + n)]).withUnsafeBufferPointer {
                    try check(EGifPutExtensionBlock(gif, Int32(n), $0.baseAddress), frame: 0, doing: "EGifPutExtensionBlock")
                }
                at += n
            }
            try check(EGifPutExtensionTrailer(gif), frame: 0, doing: "EGifPutExtensionTrailer")
        }
        for entry in m.text {
            try check(EGifPutExtensionLeader(gif, COMMENT_EXT_FUNC_CODE), frame: 0, doing: "EGifPutExtensionLeader")
            try blocks(Array(ImageMetadata.gifComment(entry).utf8))
        }
        if let icc = m.iccProfile, !icc.isEmpty {
            let name = Array("ICCRGBG1012".utf8)
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), frame: 0, doing: "EGifPutExtensionLeader")
            try check(EGifPutExtensionBlock(gif, Int32(name.count), name), frame: 0, doing: "EGifPutExtensionBlock")
            try blocks(icc)
        }
        if let xmp = m.xmp, !xmp.isEmpty {
            // Not sub-blocks: written past giflib, between its records.
            output.buffer += [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + Array(xmp.utf8)
            output.buffer += [1] + (0...255).reversed().map { UInt8($0) } + [0]
        }
    }

    /// One frame: its graphic control extension (unless `control` is
    /// false: a still that needs none), then the image record
    /// (`palette` nil: the global colour table). `indices` holds
    /// `rect.width * rect.height` palette indices, row by row; they are
    /// rewritten to the written table's order.
    func writeImage(
        frame: Int, rect: Rect, delay: Int, disposal: Disposal, transparentIndex: Int?,
        palette: GIFPalette?, indices: UnsafeMutableBufferPointer<UInt8>, control: Bool = true
    ) throws {
        let gif = try handle(frame: frame)
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
        let start = sink.offset + output.buffer.count
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
        var gcb = GraphicsControlBlock(
            DisposalMode: disposal.rawValue, UserInputFlag: false,
            DelayTime: Int32(delay), TransparentColor: Int32(transparent))
        var extensionBytes = [GifByteType](repeating: 0, count: 8)
        let length = EGifGCBToExtension(&gcb, &extensionBytes)
        if control {  // without it: no delay, no disposal, no transparency
            try check(
                EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes),
                frame: frame, doing: "EGifPutExtension")
        }
        // The image record is written here, not by giflib: its LZW
        // always clears a full table, where `GIFLZWEncoder` defers the
        // clear when that is smaller. LZW codes are as narrow as the
        // indices used allow: later frames of a screen recording often use
        // a few low indices, and 4-bit codes beat 8-bit ones.
        precondition(indices.count == rect.width * rect.height, "GIFLibEncoder: index buffer size")
        var record: [UInt8] = [0x2C]
        for v in [rect.x, rect.y, rect.width, rect.height] { record += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        let bits: Int
        if let palette {
            record.append(0x80 | UInt8(palette.bitsPerPixel - 1))
            record += Self.tableBytes(palette)
            bits = palette.bitsPerPixel
        } else {
            record.append(0)
            bits = max(Self.bits(largest), 2)
        }
        output.buffer += record
        output.buffer += data ?? GIFLZWEncoder.encode(UnsafeBufferPointer(indices), bitsPerPixel: bits)
        try output.flush()
        usage.append((used, sink.offset - start))
    }

    /// Writes the trailer and frees giflib's state.
    func close(frame: Int) throws {
        guard let gif else { return }
        self.gif = nil
        var code: Int32 = 0
        let status = EGifCloseFile(gif, &code)
        if let error = output.error { throw error }
        if status != GIF_OK { throw Self.error(sink.name, frame: frame, code: code, doing: "EGifCloseFile") }
        try output.flush()
    }

    private func handle(frame: Int) throws -> UnsafeMutablePointer<GifFileType> {
        guard let gif else {
            throw AnimError(
                file: sink.name, frame: frame, LibraryFailure(library: "giflib", message: "the file is already closed"))
        }
        return gif
    }

    private func check(_ status: Int32, frame: Int, doing call: String) throws {
        guard status != GIF_OK else { return }
        if let error = output.error { throw error }
        throw Self.error(sink.name, frame: frame, code: gif?.pointee.Error ?? 0, doing: call)
    }

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
        // Written index → palette colour (nil: the transparent entry, kept first).
        var colors: [UInt32] = []
        var remap = [UInt8](repeating: 0, count: 256)
        // The transparent entry stays when the frame names it, used or not.
        let transparent = table.transparentIndex != nil && (used[0] || keepTransparent)
        if transparent { used[0] = true }
        for w in 0..<256 where used[w] {
            if table.transparentIndex != nil && w == 0 { continue }
            let p = table.transparentIndex == nil ? w : w - 1
            guard p < table.colors.count else { return nil }
            colors.append(table.colors[p])
        }
        let compact = GIFPalette(colors: colors, transparent: transparent)
        var next = 0
        for w in 0..<256 where used[w] {
            if table.transparentIndex != nil && w == 0 {
                remap[w] = UInt8(written(compact.transparentIndex!, compact))
                continue
            }
            remap[w] = UInt8(written(next, compact))
            next += 1
        }
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

    /// A `ColorMapObject` over the palette's table, valid inside `body`
    /// (giflib copies it).
    private func withColorMap(_ palette: GIFPalette, _ body: (UnsafePointer<ColorMapObject>) -> Int32) -> Int32 {
        let table = Self.tableBytes(palette)
        var colors = (0..<palette.tableSize).map {
            GifColorType(Red: table[3 * $0], Green: table[3 * $0 + 1], Blue: table[3 * $0 + 2])
        }
        return colors.withUnsafeMutableBufferPointer { buffer in
            var map = ColorMapObject(
                ColorCount: Int32(palette.tableSize), BitsPerPixel: Int32(palette.bitsPerPixel),
                SortFlag: false, Colors: buffer.baseAddress)
            return body(&map)
        }
    }

    private static func error(_ file: String, frame: Int?, code: Int32, doing call: String) -> AnimError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return AnimError(file: file, frame: frame, LibraryFailure(library: "giflib", message: "\(call): \(text)"))
    }
}
