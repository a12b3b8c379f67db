import CColorKernel

/// Decodes one GIF image at a time with anim's LZW decoder
/// (`GIFLZWDecoder`), from memory. Each image's LZW stream is independent
/// of the others, so any image decodes on its own, in any order, from any
/// thread (the prefetcher decodes the next images on the other cores while
/// the compositor works in order); each decode keeps its buffers in locals.
final class GIFDecoder: SplitStepDecoder, Sendable {
    /// Transparent pixels can be left unwritten: GIF's alpha is 1-bit.
    let writesMasked = true
    private let store: ByteStore
    private let images: [GIFImageRecord]
    private let steps: [Step]
    /// Converts the colour tables to sRGB (`ColorManagedDecoder`).
    private let transform: ColorTransform?

    init(store: ByteStore, images: [GIFImageRecord], steps: [Step], transform: ColorTransform? = nil) {
        self.store = store
        self.images = images
        self.steps = steps
        self.transform = transform
    }

    /// The same decoder with its colour tables converted by `transform`.
    func convertingColorTables(_ transform: ColorTransform) -> StepDecoder? {
        GIFDecoder(store: store, images: images, steps: steps, transform: transform)
    }

    func dataRange(step index: Int) -> Range<Int> { images[index].descriptorOffset..<images[index].dataEnd }

    func decode(step index: Int, into target: PixelTarget) throws {
        guard !steps[index].rect.isEmpty else { return }
        let bytes = preparedBytes(step: index)
        let indices = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16)
        defer { indices.deallocate() }
        let valid = try prepare(step: index, into: indices)
        finish(step: index, prepared: UnsafeRawBufferPointer(indices), result: valid, into: target)
    }

    /// How many of image `index`'s indices are needed: every row down to
    /// the canvas's bottom edge (all of them when interlaced), as each
    /// string may repeat any run decoded before it.
    private func needed(_ index: Int) -> Int {
        let image = images[index]
        let clip = steps[index].rect
        if image.interlaced || clip.isEmpty { return image.rect.width * image.rect.height }
        return min(image.rect.height, clip.y + clip.height - image.rect.y) * image.rect.width
    }

    /// True when decoding the needed indices into one buffer would take far
    /// more memory than the image's part of the canvas (an image reaching
    /// far past a small screen): then it is decoded row by row
    /// (`GIFLZWRowDecoder`), in one row of memory.
    private func streams(_ index: Int) -> Bool {
        let clip = steps[index].rect
        return needed(index) > 2 * clip.width * clip.height + (1 << 20)
    }

    func preparedBytes(step index: Int) -> Int { streams(index) ? 1 : max(needed(index), 1) }

    /// Decodes image `index`'s LZW data into its colour indices, in stored
    /// order; returns how many were decoded (-1: left to `finish`, row by row).
    func prepare(step index: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let image = images[index]
        guard !steps[index].rect.isEmpty else { return 0 }
        if streams(index) { return -1 }
        return GIFLZWDecoder.decode(
            store.bytes, offset: image.dataOffset, end: image.dataEnd,
            into: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: needed(index))
    }

    /// Maps the indices to RGBA in the target, clipped to the canvas.
    func finish(step index: Int, prepared buffer: UnsafeRawBufferPointer, result valid: Int, into target: PixelTarget) {
        let image = images[index]
        let clip = steps[index].rect
        if clip.isEmpty { return }
        if valid < 0 { return decodeRows(index, into: target) }
        let palette = makePalette(image)
        let writer = RowWriter(target: target, image: image, clip: clip)
        let total = needed(index)
        let indices = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let width = image.rect.width
        palette.withUnsafeBufferPointer { pal in
            if valid < total && !target.masked { writer.clearAll() }
            var order = GIFRowOrder(height: image.rect.height, interlaced: image.interlaced)
            for r in 0..<image.rect.height {
                guard let y = order.next(), r * width < valid else { break }
                writer.put(row: y, indices: indices + r * width, valid: min(width, valid - r * width), palette: pal.baseAddress!)
            }
            // Damaged or cut short: the rows the data never reached (a
            // row cut part way counts as not decoded) show the rows of
            // earlier passes as browsers show them (`GIFInterlaceFill`).
            guard image.interlaced, valid < total else { return }
            let stored = GIFRowOrder.stored(height: image.rect.height, interlaced: true)
            let whole = { (y: Int) in (stored[y] + 1) * width <= valid }
            for y in 0..<image.rect.height where !whole(y) {
                guard let from = GIFInterlaceFill.source(of: y, decoded: whole) else { continue }
                // (A row cut part way keeps what was decoded of it.)
                let done = max(0, min(width, valid - stored[y] * width))
                writer.put(
                    row: y, indices: indices + stored[from] * width, valid: width, palette: pal.baseAddress!, from: done)
            }
        }
    }

    /// Decodes image `index` row by row straight into the target: the
    /// rows the canvas shows, the rest of each only decoded through.
    private func decodeRows(_ index: Int, into target: PixelTarget) {
        let image = images[index]
        let clip = steps[index].rect
        let palette = makePalette(image)
        let writer = RowWriter(target: target, image: image, clip: clip)
        if !target.masked { writer.clearAll() }
        // Rows of the image the canvas shows (and, for the interlace fill,
        // the 7 above them whose rows may cover them).
        let shown = max(0, clip.y - image.rect.y - 7)..<(clip.y + clip.height - image.rect.y)
        var order = GIFRowOrder(height: image.rect.height, interlaced: image.interlaced)
        var whole: [Int: [UInt8]] = [:]
        var decoded: [Int: Int] = [:]
        palette.withUnsafeBufferPointer { pal in
            GIFLZWRowDecoder.decodeRows(
                store.bytes, offset: image.dataOffset, end: image.dataEnd, width: image.rect.width, rows: image.rect.height
            ) { _, line, valid in
                guard let y = order.next() else { return false }
                if shown.contains(y) {
                    writer.put(row: y, indices: line.baseAddress!, valid: valid, palette: pal.baseAddress!)
                    if image.interlaced {
                        decoded[y] = valid
                        if valid >= image.rect.width { whole[y] = Array(line.prefix(image.rect.width)) }
                    }
                }
                // Not interlaced: past the canvas's last row, nothing more is shown.
                return image.interlaced || y + 1 < shown.upperBound
            }
            guard image.interlaced, shown.contains(where: { whole[$0] == nil }) else { return }
            for y in shown where whole[y] == nil {
                guard let from = GIFInterlaceFill.source(of: y, decoded: { whole[$0] != nil }) else { continue }
                whole[from]!.withUnsafeBufferPointer {
                    writer.put(
                        row: y, indices: $0.baseAddress!, valid: image.rect.width, palette: pal.baseAddress!,
                        from: decoded[y] ?? 0)
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
        for i in 0..<min(image.palette.count, 256) {
            let p = image.palette.offset + 3 * i
            table[i] = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | 0xFF00_0000
        }
        if let transform {
            table.withUnsafeMutableBytes { transform.apply($0.baseAddress!, width: 256, rows: 1, stride: 1024) }
        }
        if let t = image.transparentIndex, t < 256 { table[t] = 0 }
        return table
    }
}

/// An image covering the canvas exactly, shrunk as its rows are mapped to
/// colours (`Downsampler.rows`): the indices (a byte a pixel) and a row of
/// colours in memory, not the canvas (4 bytes a pixel). The same pixels as
/// compositing then downsampling. Damaged data, an image reaching past the
/// canvas, or one decoded row by row takes the usual path.
extension GIFDecoder: ScaledStepDecoder {
    /// The indices, a byte a pixel, and a row of colours.
    func scaledDecodingBytes(step index: Int) -> Int { needed(index) + steps[index].rect.width * 4 }

    func scales(step index: Int) -> Bool {
        images[index].rect == steps[index].rect && !steps[index].rect.isEmpty && !streams(index)
    }

    func decodeScaled(step index: Int, width: Int, height: Int, into target: UnsafeMutableRawBufferPointer) throws
        -> Bool
    {
        let image = images[index]
        let clip = steps[index].rect
        guard scales(step: index),
            let feed = Downsampler(sourceWidth: clip.width, sourceHeight: clip.height, width: width, height: height)
                .rows(into: target)
        else { return false }
        let total = needed(index)
        let indices = UnsafeMutableRawBufferPointer.allocate(byteCount: total, alignment: 16)
        defer { indices.deallocate() }
        guard try prepare(step: index, into: indices) == total else { return false }
        let stored = GIFRowOrder.stored(height: clip.height, interlaced: image.interlaced)
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: clip.width)
        defer { row.deallocate() }
        let base = indices.baseAddress!.assumingMemoryBound(to: UInt8.self)
        makePalette(image).withUnsafeBufferPointer { palette in
            for y in 0..<clip.height {
                anim_palette_expand(base + stored[y] * clip.width, clip.width, palette.baseAddress!, row, 0)
                feed.add(UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self))
            }
        }
        feed.finish()
        return true
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
        let cy = image.rect.y + y - clip.y
        guard cy >= 0 && cy < clip.height else { return }
        let x0 = clip.x - image.rect.x
        let count = min(clip.width, valid - x0)
        let first = max(0, from - x0)
        guard count > first else { return }
        let src = indices + x0
        let out = (target.base + cy * target.stride).assumingMemoryBound(to: UInt32.self)
        // The entry where it is opaque, else what is there (an image
        // without a transparent index writes every pixel); in C, branch-free
        // and eight pixels at a time (`palette.c`).
        let masked = target.masked && image.transparentIndex.map({ $0 < 256 }) == true
        anim_palette_expand(src + first, count - first, palette, out + first, masked ? 1 : 0)
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
    private let passes: [(start: Int, stride: Int)]
    private var pass = 0
    private var row = 0

    init(height: Int, interlaced: Bool) {
        self.height = height
        passes = interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
    }

    mutating func next() -> Int? {
        while pass < passes.count {
            if row < height {
                defer { row += passes[pass].stride }
                return row
            }
            pass += 1
            if pass < passes.count { row = passes[pass].start }
        }
        return nil
    }

    /// For each image row, the stored row that holds it.
    static func stored(height: Int, interlaced: Bool) -> [Int] {
        var stored = [Int](repeating: 0, count: height)
        for (r, y) in GIFRowOrder(height: height, interlaced: interlaced).enumerated() { stored[y] = r }
        return stored
    }
}
