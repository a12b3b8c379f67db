import CGIF

/// Decodes one GIF image at a time with giflib, from memory.
///
/// giflib reads a virtual stream: the file's header, screen descriptor and
/// global colour table, then the bytes of the wanted image only. So any image
/// decodes on its own, in any order, from any thread, without `DGifSlurp`.
/// This is the only file that imports giflib.
final class GIFDecoder: StepDecoder, @unchecked Sendable {
    private let store: ByteStore
    private let file: String
    private let headerLength: Int
    private let images: [GIFImageRecord]
    private let steps: [Step]

    init(store: ByteStore, file: String, headerLength: Int, images: [GIFImageRecord], steps: [Step]) {
        self.store = store; self.file = file; self.headerLength = headerLength
        self.images = images; self.steps = steps
    }

    /// The stream giflib reads: `bytes[0..<prefix]` then `bytes[start..<end]`.
    private struct Stream {
        var base: UnsafePointer<UInt8>
        var prefix: Int
        var start: Int
        var end: Int
        var position = 0
    }

    private static let read: InputFunc = { gif, buffer, wanted in
        guard let gif, let buffer, wanted > 0,
              let stream = gif.pointee.UserData?.assumingMemoryBound(to: Stream.self) else { return 0 }
        var copied = 0
        let want = Int(wanted)
        while copied < want {
            let p = stream.pointee.position
            let from: Int, available: Int
            if p < stream.pointee.prefix {
                from = p; available = stream.pointee.prefix - p
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

    func decode(step index: Int, into patch: UnsafeMutableRawBufferPointer) throws {
        let image = images[index]
        let clip = steps[index].rect
        if clip.isEmpty { return }
        let stream = UnsafeMutablePointer<Stream>.allocate(capacity: 1)
        stream.initialize(to: Stream(base: store.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                     prefix: headerLength, start: image.descriptorOffset, end: image.dataEnd))
        defer { stream.deallocate() }
        let palette = makePalette(image)
        if decodeWithGiflib(stream, image: image, clip: clip, palette: palette, patch: patch) { return }
        // giflib gave up (damaged data, or a code size above 8 that browsers
        // accept, gif-suite `max-codes`): decode again with the tolerant Swift
        // decoder, which keeps every pixel up to the damage.
        patch.initializeMemory(as: UInt8.self, repeating: 0)
        salvage(image: image, clip: clip, palette: palette, patch: patch)
    }

    /// True when giflib decoded every row.
    private func decodeWithGiflib(_ stream: UnsafeMutablePointer<Stream>, image: GIFImageRecord, clip: Rect,
                                  palette: [UInt32], patch: UnsafeMutableRawBufferPointer) -> Bool {
        var error: Int32 = 0
        guard let gif = DGifOpen(stream, Self.read, &error) else { return false }
        defer { var e: Int32 = 0; DGifCloseFile(gif, &e) }
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &type) == GIF_OK, type == IMAGE_DESC_RECORD_TYPE,
              DGifGetImageDesc(gif) == GIF_OK else { return false }
        return readRows(gif, image: image, clip: clip, palette: palette, patch: patch) == image.height
    }

    /// 256 RGBA entries as UInt32 (little-endian byte order R, G, B, A).
    /// Indices past the colour table are opaque black; the transparent index
    /// is (0, 0, 0, 0).
    private func makePalette(_ image: GIFImageRecord) -> [UInt32] {
        var table = [UInt32](repeating: 0xFF00_0000, count: 256)
        let bytes = store.bytes
        for i in 0..<min(image.paletteCount, 256) {
            let p = image.paletteOffset + 3 * i
            table[i] = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | 0xFF00_0000
        }
        if let t = image.transparentIndex, t < 256 { table[t] = 0 }
        return table
    }

    private func salvage(image: GIFImageRecord, clip: Rect, palette: [UInt32], patch: UnsafeMutableRawBufferPointer) {
        let out = patch.baseAddress!.assumingMemoryBound(to: UInt32.self)
        var order = GIFRowOrder(height: image.height, interlaced: image.interlaced)
        let x0 = clip.x - image.x
        palette.withUnsafeBufferPointer { pal in
            GIFLZW.decode(store.bytes, offset: image.dataOffset, end: image.dataEnd,
                          width: image.width, rows: image.height) { _, line, valid in
                guard let y = order.next() else { return }
                let cy = image.y + y - clip.y
                guard cy >= 0 && cy < clip.height else { return }
                let row = out + cy * clip.width
                let stop = min(clip.width, valid - x0)
                if stop > 0 { for x in 0..<stop { row[x] = pal[Int(line[x0 + x])] } }
            }
        }
    }

    /// Reads rows in stored order (interlace passes when set), writing the
    /// part inside `clip`. Returns how many rows giflib delivered.
    private func readRows(_ gif: UnsafeMutablePointer<GifFileType>, image: GIFImageRecord, clip: Rect,
                          palette: [UInt32], patch: UnsafeMutableRawBufferPointer) -> Int {
        let width = image.width
        var line = [UInt8](repeating: 0, count: max(width, 1))
        let x0 = clip.x - image.x, x1 = x0 + clip.width
        let out = patch.baseAddress!.assumingMemoryBound(to: UInt32.self)
        var done = 0
        palette.withUnsafeBufferPointer { pal in
            line.withUnsafeMutableBufferPointer { buf in
                for y in GIFRowOrder(height: image.height, interlaced: image.interlaced) {
                    if DGifGetLine(gif, buf.baseAddress, Int32(width)) != GIF_OK { return }
                    done += 1
                    let cy = image.y + y - clip.y
                    guard cy >= 0 && cy < clip.height else { continue }
                    let row = out + cy * clip.width
                    for x in x0..<x1 { row[x - x0] = pal[Int(buf[x])] }
                }
            }
        }
        return done
    }
}
/// The order in which a GIF stores rows: top to bottom, or the four
/// interlace passes (every 8th row from 0, every 8th from 4, every 4th from
/// 2, every 2nd from 1).
struct GIFRowOrder: Sequence, IteratorProtocol {
    let height: Int
    let interlaced: Bool
    private var pass = 0
    private var row = 0
    private var started = false
    private static let starts = [0, 4, 2, 1], strides = [8, 8, 4, 2]

    init(height: Int, interlaced: Bool) {
        self.height = height; self.interlaced = interlaced
    }

    mutating func next() -> Int? {
        if !interlaced {
            guard row < height else { return nil }
            defer { row += 1 }
            return row
        }
        while pass < 4 {
            if !started { row = Self.starts[pass]; started = true }
            if row < height {
                defer { row += Self.strides[pass] }
                return row
            }
            pass += 1
            started = false
        }
        return nil
    }
}
