/// Walks a GIF's blocks in Swift and records every image's position, rect
/// and Graphic Control Extension, without decoding any LZW data.
struct GIFParser {
    let bytes: UnsafeRawBufferPointer
    let file: String
    let limits: DecodingLimits
    /// Called as parsing moves on with the offset reached, so that a mapped
    /// file's pages behind it can be given back.
    var passed: (Int) -> Void = { _ in }

    struct Result {
        var width = 0, height = 0
        /// Bytes of header, logical screen descriptor and global colour table.
        var headerLength = 0
        var images: [GIFImageRecord] = []
        var loopCount: Int?
        /// True when the file has any extension block at all.
        var hasExtensions = false
        var error: AnimError?
        var metadata = ImageMetadata()
        /// An XMP extension was looked at (only the first is searched).
        var triedXMP = false
    }

    func parse() throws -> Result {
        var r = ByteReader(bytes)
        var out = Result()
        guard r.skip(6), let w = r.u16le(), let h = r.u16le(), let flags = r.u8(), r.skip(2) else {
            throw AnimError(file: file, offset: bytes.count, GIFProblem.headerIncomplete)
        }
        try limits.checkCanvas(width: w, height: h, file: file)
        out.width = w
        out.height = h
        if flags & 0x80 != 0 && !r.skip(3 << (Int(flags & 7) + 1)) {
            throw AnimError(file: file, offset: bytes.count, GIFProblem.colorTableIncomplete)
        }
        out.headerLength = r.offset
        let globalCount = flags & 0x80 != 0 ? 2 << Int(flags & 7) : 0
        var pendingGCE: (disposal: Int, delay: Int, transparent: Int?)? = nil
        var mark = 0
        while true {
            if r.offset - mark >= 4 << 20 {
                mark = r.offset
                passed(mark)
            }
            let blockStart = r.offset
            guard let introducer = r.u8() else {
                out.error = AnimError(
                    file: file, frame: out.images.count, offset: blockStart, GIFProblem.endsBeforeTrailer)
                break
            }
            if introducer == 0x3B { break }
            if introducer == 0x21 {
                out.hasExtensions = true
                if !parseExtension(&r, &out, &pendingGCE) {
                    out.error = AnimError(
                        file: file, frame: out.images.count, offset: r.offset, GIFProblem.endsInsideExtension)
                    break
                }
            } else if introducer == 0x2C {
                try limits.checkFrameCount(out.images.count + 1, file: file)
                let (image, ok) = parseImage(&r, start: blockStart, gce: pendingGCE, globalCount: globalCount)
                pendingGCE = nil
                if let image { out.images.append(image) }
                if !ok {
                    out.error = AnimError(
                        file: file, frame: out.images.count - (image == nil ? 0 : 1), offset: r.offset,
                        GIFProblem.endsInsideImageData)
                    break
                }
            } else {
                out.error = AnimError(
                    file: file, frame: out.images.count, offset: blockStart, GIFProblem.unknownBlock(introducer))
                break
            }
        }
        return out
    }

    /// The data of the sub-blocks starting at `offset`, joined; nil when
    /// they end early or pass `ImageMetadata.maximumBlock`.
    private func subBlockData(_ offset: Int) -> [UInt8]? {
        var data: [UInt8] = []
        var p = offset
        while p < bytes.count {
            let n = Int(bytes[p])
            if n == 0 { return data }
            guard p + 1 + n <= bytes.count, data.count + n <= ImageMetadata.maximumBlock else { return nil }
            data += UnsafeRawBufferPointer(rebasing: bytes[(p + 1)..<(p + 1 + n)])
            p += 1 + n
        }
        return nil
    }

    /// XMP as Adobe stores it in GIF: the packet's bytes run on without
    /// sub-block lengths, then a 257-byte "magic trailer" (0x01, 0xFF down
    /// to 0x00) lets sub-block readers skip it; the packet ends at `<?xpacket end…?>`.
    private func rawXMP(_ offset: Int) -> String? {
        // The trailer makes a sub-block walk stop right after the packet:
        // the search stays inside this extension.
        var walker = ByteReader(bytes, offset: offset)
        guard skipSubBlocks(&walker) else { return nil }
        let end = min(walker.offset, offset + ImageMetadata.maximumBlock)
        let close = Array("<?xpacket end=".utf8)
        guard end - offset > close.count else { return nil }
        for at in offset...(end - close.count)
        where bytes[at] == close[0] && bytes[at..<(at + close.count)].elementsEqual(close) {
            guard let stop = bytes[at..<end].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset...stop]), as: UTF8.self)
        }
        return nil
    }

    /// Reads sub-blocks up to the terminator; false if the data ends first.
    private func skipSubBlocks(_ r: inout ByteReader) -> Bool {
        while let n = r.u8() {
            if n == 0 { return true }
            if !r.skip(Int(n)) {
                r.offset = bytes.count
                return false
            }
        }
        return false
    }

    private func parseExtension(
        _ r: inout ByteReader, _ out: inout Result,
        _ gce: inout (disposal: Int, delay: Int, transparent: Int?)?
    ) -> Bool {
        guard let label = r.u8() else { return false }
        if label == 0xF9, r.remaining >= 6, bytes[r.offset] >= 4 {
            let p = r.offset + 1
            let packed = bytes[p]
            let delay = Int(bytes[p + 1]) | Int(bytes[p + 2]) << 8
            gce = (Int(packed >> 2) & 7, delay, packed & 1 != 0 ? Int(bytes[p + 3]) : nil)
        } else if label == 0xFE {
            guard let comment = subBlockData(r.offset) else { return skipSubBlocks(&r) }
            out.metadata.text.append(.init(keyword: "", text: String(decoding: comment, as: UTF8.self)))
        } else if label == 0xFF, r.remaining >= 12, bytes[r.offset] == 11 {
            let id = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(r.offset + 1)..<(r.offset + 12)]), as: UTF8.self)
            if id == "ICCRGBG1012", out.metadata.iccProfile == nil { out.metadata.iccProfile = subBlockData(r.offset + 12) }
            if id == "XMP DataXMP", !out.triedXMP {
                out.triedXMP = true
                out.metadata.xmp = rawXMP(r.offset + 12)
            }
            // Several loop blocks: the last one counts, as in Chromium (which
            // plays wuffs' multiple-loop-counts.gif, blocks 50, 30, 40, with
            // a repetition count of 40) and wuffs ("the most recent").
            if id == "NETSCAPE2.0" || id == "ANIMEXTS1.0" {
                let p = r.offset + 12
                if p + 3 < bytes.count, bytes[p] >= 3, bytes[p + 1] == 1 {
                    out.loopCount = Int(bytes[p + 2]) | Int(bytes[p + 3]) << 8
                }
            }
        }
        return skipSubBlocks(&r)
    }

    private func parseImage(
        _ r: inout ByteReader, start: Int, gce: (disposal: Int, delay: Int, transparent: Int?)?,
        globalCount: Int
    ) -> (GIFImageRecord?, Bool) {
        guard let x = r.u16le(), let y = r.u16le(), let w = r.u16le(), let h = r.u16le(), let flags = r.u8() else {
            return (nil, false)
        }
        var image = GIFImageRecord(
            descriptorOffset: start, dataEnd: 0, rect: Rect(x: x, y: y, width: w, height: h),
            interlaced: flags & 0x40 != 0, palette: (13, globalCount))
        let empty = w == 0 || h == 0
        let afterFlags = r.offset
        if flags & 0x80 != 0 {
            image.palette = (r.offset, 2 << Int(flags & 7))
            if !r.skip(3 * image.palette.count) {
                // An image of no pixels whose colour table is cut by the
                // end: nothing of it is needed (gif-suite image-zero-height).
                guard empty else { return (nil, false) }
                r.offset = afterFlags
                image.palette = (13, globalCount)
            }
        }
        if let gce {
            image.hasGCE = true
            image.disposal = gce.disposal
            image.delay = gce.delay
            image.transparentIndex = gce.transparent
        }
        image.dataOffset = r.offset
        // An image of no pixels (width or height 0) may come with no data
        // at all: the next byte starts a block (or the file ends) instead
        // of giving a code size (at most 12). Browsers show such a file
        // without error; so does anim (gif-suite image-zero-width,
        // image-zero-height, image-zero-size).
        if empty, r.offset >= bytes.count || bytes[r.offset] > 12 {
            image.dataEnd = r.offset
            return (image, true)
        }
        guard r.u8() != nil else {  // LZW minimum code size
            image.complete = false
            image.dataEnd = bytes.count
            return (image, false)
        }
        let ok = skipSubBlocks(&r)
        image.complete = ok
        image.dataEnd = ok ? r.offset : bytes.count
        return (image, ok)
    }
}
