/// Decodes one APNG frame: repacks it as a plain PNG (IHDR with the frame's
/// size, the shared PLTE and tRNS, the frame's data as IDAT, IEND), the way
/// APNGKit does, and lets libpng decode that.
///
/// Each decode keeps its libpng state in locals.
final class APNGDecoder: ScaledStepDecoder, Sendable {
    let writesMasked = false
    private let store: ByteStore
    private let file: String
    private let header: PNGHeader
    private let frames: [APNGFrameRecord]

    init(store: ByteStore, file: String, header: PNGHeader, frames: [APNGFrameRecord]) {
        self.store = store
        self.file = file
        self.header = header
        self.frames = frames
    }

    func dataRange(step index: Int) -> Range<Int> {
        let segments = frames[index].segments
        guard let first = segments.first, let last = segments.last else { return 0..<0 }
        return first.chunkTypeOffset..<(last.chunkTypeOffset + 8 + last.dataLength)
    }

    func decode(step index: Int, into target: PixelTarget) throws {
        try decode(step: index, into: target, fast: true)
    }

    /// `fast`: as `PNGBridge.decode`'s (false: libpng alone).
    func decode(step index: Int, into target: PixelTarget, fast: Bool) throws {
        let frame = frames[index]
        let png = repackedHeader(width: frame.rect.width, height: frame.rect.height)
        let result = PNGBridge.decode(
            file: store.bytes, header: png, segments: frame.segments,
            width: frame.rect.width, height: frame.rect.height,
            into: target.base, stride: target.stride, fast: fast)
        if !result.ok {
            throw AnimError(
                file: file, frame: index,
                LibraryFailure(library: "libpng", message: result.message + " (frame data at byte \(frame.offset))"))
        }
    }

    /// Interlaced rows come in passes: those take the usual path.
    func scales(step index: Int) -> Bool { header.interlace == 0 }

    /// libpng's rows (a few, of up to 8 bytes a pixel) and its zlib window.
    func scaledDecodingBytes(step index: Int) -> Int { frames[index].rect.width * 32 + (64 << 10) }

    /// A still shrunk as libpng hands over its rows (`Downsampler.rows`):
    /// a row of pixels in memory, not the canvas; the same pixels as
    /// decoding whole then downsampling. Damaged data takes the usual path
    /// (it shows the rows that decode).
    func decodeScaled(step index: Int, width: Int, height: Int, into target: UnsafeMutableRawBufferPointer) throws
        -> Bool
    {
        let frame = frames[index]
        guard scales(step: index),
            let feed = Downsampler(
                sourceWidth: frame.rect.width, sourceHeight: frame.rect.height, width: width, height: height
            ).rows(into: target)
        else { return false }
        let png = repackedHeader(width: frame.rect.width, height: frame.rect.height)
        let done = PNGBridge.decodeRows(
            file: store.bytes, header: png, segments: frame.segments, width: frame.rect.width,
            height: frame.rect.height
        ) { feed.add($0) }
        guard done else { return false }
        feed.finish()
        return true
    }

    /// Signature, IHDR for a `width`×`height` image, PLTE and tRNS copied.
    private func repackedHeader(width: Int, height: Int) -> [UInt8] {
        var out = PNGChunk.signature
        let ihdr = PNGChunk.ihdr(
            width: width, height: height, colorType: header.colorType, depth: header.bitDepth, interlace: header.interlace)
        PNGChunk.append(.IHDR, ihdr, to: &out)
        for c in header.sharedChunks {
            out += store.bytes[c.offset..<c.end]
        }
        return out
    }
}
