/// Decodes one GIF image at a time with giflib, from memory (the giflib
/// calls are in `GIFLib.swift`), or with the tolerant Swift LZW decoder.
///
/// giflib reads a virtual stream: the file's header, screen descriptor and
/// global colour table, then the bytes of the wanted image only. So any image
/// decodes on its own, in any order, from any thread, without `DGifSlurp`.
///
/// `@unchecked Sendable`: every stored field is a `let` of immutable data; each
/// decode keeps its giflib handle and buffers in locals.
final class GIFDecoder: StepDecoder, @unchecked Sendable {
    /// Transparent pixels can be left unwritten: GIF's alpha is 1-bit.
    let writesMasked = true
    private let store: ByteStore
    private let headerLength: Int
    private let images: [GIFImageRecord]
    private let steps: [Step]

    init(store: ByteStore, headerLength: Int, images: [GIFImageRecord], steps: [Step]) {
        self.store = store
        self.headerLength = headerLength
        self.images = images
        self.steps = steps
    }

    func dataRange(step index: Int) -> Range<Int> { images[index].descriptorOffset..<images[index].dataEnd }

    func decode(step index: Int, into target: PixelTarget) throws {
        let image = images[index]
        let clip = steps[index].rect
        if clip.isEmpty { return }
        let palette = makePalette(image)
        let writer = RowWriter(target: target, image: image, clip: clip)
        if Self.decodeWithGiflib(
            base: store.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), header: headerLength,
            image: image.descriptorOffset..<image.dataEnd, writer, palette: palette)
        {
            return
        }
        // giflib gave up (damaged data, or a code size above 8 that browsers
        // accept, gif-suite `max-codes`): decode again with the tolerant Swift
        // decoder, which keeps every pixel up to the damage; the rest of the
        // image is transparent.
        if !target.masked { writer.clearAll() }
        palette.withUnsafeBufferPointer { pal in
            var order = GIFRowOrder(height: image.height, interlaced: image.interlaced)
            // Interlaced: the whole rows decoded, kept to fill the rows the
            // data never reached (`GIFInterlaceFill`).
            var whole: [[UInt8]?] = image.interlaced ? Array(repeating: nil, count: image.height) : []
            var decoded = [Int](repeating: 0, count: image.interlaced ? image.height : 0)
            GIFLZWDecoder.decode(
                store.bytes, offset: image.dataOffset, end: image.dataEnd,
                width: image.width, rows: image.height
            ) { _, line, valid in
                guard let y = order.next() else { return }
                writer.put(row: y, indices: line.baseAddress!, valid: valid, palette: pal.baseAddress!)
                if image.interlaced {
                    decoded[y] = valid
                    if valid >= image.width { whole[y] = Array(line.prefix(image.width)) }
                }
            }
            // (A row the data never reached counts as 0 decoded.)
            guard image.interlaced, decoded.contains(where: { $0 < image.width }) else { return }
            for y in 0..<image.height where whole[y] == nil {
                guard let from = GIFInterlaceFill.source(of: y, decoded: { whole[$0] != nil }) else { continue }
                // (A row cut part way keeps what was decoded of it.)
                whole[from]!.withUnsafeBufferPointer {
                    writer.put(
                        row: y, indices: $0.baseAddress!, valid: image.width, palette: pal.baseAddress!, from: decoded[y])
                }
            }
        }
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
}

/// Maps a GIF image's rows of colour indices to RGBA in the target, clipped
/// to the canvas. In a masked target transparent pixels are not written.
struct RowWriter {
    let target: PixelTarget
    let image: GIFImageRecord
    let clip: Rect

    /// Writes stored row `y` of the image, of which `valid` indices were
    /// decoded, from image column `from` on.
    @inline(__always)
    func put(row y: Int, indices: UnsafePointer<UInt8>, valid: Int, palette: UnsafePointer<UInt32>, from: Int = 0) {
        let cy = image.y + y - clip.y
        guard cy >= 0 && cy < clip.height else { return }
        let x0 = clip.x - image.x
        let count = min(clip.width, valid - x0)
        let first = max(0, from - x0)
        guard count > first else { return }
        let src = indices + x0
        let out = (target.base + cy * target.stride).assumingMemoryBound(to: UInt32.self)
        if target.masked {
            for x in first..<count {
                let v = palette[Int(src[x])]
                out[x] = v >= 0x0100_0000 ? v : out[x]  // branch-free select
            }
        } else {
            for x in first..<count { out[x] = palette[Int(src[x])] }
        }
    }

    /// Makes every pixel of the clipped rect transparent.
    func clearAll() {
        for y in 0..<clip.height {
            (target.base + y * target.stride).initializeMemory(as: UInt8.self, repeating: 0, count: clip.width * 4)
        }
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
        self.height = height
        self.interlaced = interlaced
    }

    mutating func next() -> Int? {
        if !interlaced {
            guard row < height else { return nil }
            defer { row += 1 }
            return row
        }
        while pass < 4 {
            if !started {
                row = Self.starts[pass]
                started = true
            }
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
