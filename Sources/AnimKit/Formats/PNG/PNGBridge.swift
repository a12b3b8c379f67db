import CPNGBridge

/// The only file that talks to libpng (through the small C target that owns
/// libpng's `setjmp`, so `longjmp` never crosses Swift frames).
enum PNGBridge {
    /// A run of compressed image data inside a chunk of the file.
    struct Segment {
        /// Offset of the chunk's type field.
        var chunkTypeOffset: Int
        /// Length of the chunk data.
        var dataLength: Int
        /// Bytes of the data before the zlib stream starts: 0 for IDAT,
        /// 4 for fdAT (its sequence number).
        var skip: Int
    }

    /// Decodes a PNG image made of `header` (signature, IHDR, PLTE, tRNS)
    /// and the zlib stream in `segments` into RGBA8 rows. Fails with
    /// libpng's message; `rowsDone` tells how far it got. With `fast`, the
    /// common image (8 bits a sample or fewer, not interlaced) is inflated
    /// by libdeflate and unfiltered in C (`pngfast.c`), and whatever that
    /// path turns down (damage included) goes to libpng; without, libpng
    /// alone: the reference the tests and the decode fuzzer compare with.
    static func decode(
        file bytes: UnsafeRawBufferPointer, header: [UInt8], segments: [Segment],
        width: Int, height: Int, into out: UnsafeMutableRawPointer,
        stride: Int, fast: Bool = true
    ) -> (ok: Bool, rowsDone: Int, message: String) {
        let cSegments = Self.cSegments(segments, in: bytes)
        var result = anim_png_result()
        let code = header.withUnsafeBufferPointer { h in
            cSegments.withUnsafeBufferPointer { segs in
                let (out, w, rows) = (out.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height))
                if fast && anim_png_decode_fast(h.baseAddress, h.count, segs.baseAddress, segs.count, w, rows, out, stride) == 0 {
                    result.rows_done = rows
                    return Int32(0)
                }
                return anim_png_decode(h.baseAddress, h.count, segs.baseAddress, segs.count, w, rows, out, stride, &result)
            }
        }
        let message = withUnsafeBytes(of: &result.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return (code == 0, Int(result.rows_done), message)
    }

    /// `segments` as the C side reads them: each data chunk's bytes in
    /// `bytes`, where its data starts, and its stored CRC.
    private static func cSegments(_ segments: [Segment], in bytes: UnsafeRawBufferPointer) -> [anim_png_segment] {
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return segments.map { s in
            anim_png_segment(
                chunk: base + s.chunkTypeOffset, chunk_length: UInt32(4 + s.dataLength),
                data_offset: UInt32(4 + s.skip),
                stored_crc: ByteReader.be32(bytes, s.chunkTypeOffset + 4 + s.dataLength))
        }
    }

    /// The same image's rows handed to `row`, top to bottom, each
    /// `width` RGBA8 pixels (libpng, no row stored); false when the image
    /// is interlaced (nothing handed over) or its data is damaged (the
    /// rows before the damage handed over).
    static func decodeRows(
        file bytes: UnsafeRawBufferPointer, header: [UInt8], segments: [Segment], width: Int, height: Int,
        _ row: (UnsafePointer<UInt8>) -> Void
    ) -> Bool {
        let cSegments = Self.cSegments(segments, in: bytes)
        var result = anim_png_result()
        return withoutActuallyEscaping(row) { row in
            var context = row
            return withUnsafeMutablePointer(to: &context) { pointer in
                header.withUnsafeBufferPointer { h in
                    cSegments.withUnsafeBufferPointer { segs in
                        anim_png_decode_rows(
                            h.baseAddress, h.count, segs.baseAddress, segs.count, UInt32(width), UInt32(height),
                            { context, pixels in
                                context!.assumingMemoryBound(to: ((UnsafePointer<UInt8>) -> Void).self).pointee(pixels!)
                            }, pointer, &result)
                    }
                }
            } == 0
        }
    }

    /// The IDAT zlib stream of 8-bit pixels of `channels` (1: palette
    /// indices, 3: RGB, 4: RGBA), filtered and deflated with libdeflate.
    /// `filter`: 0–4 for every row, nil to choose per row.
    static func deflate(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, channels: Int,
        level: Int, search: Bool, filter: Int? = nil, zopfli: Int = 0
    ) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let code = anim_png_deflate_filtered(
            pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(width),
            UInt32(height), Int32(channels), Int32(level), search ? 1 : 0,
            Int32(filter ?? -1), Int32(zopfli), &out, &size)
        guard code == 0, let out else { return nil }
        defer { anim_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// CRC-32 as PNG chunks use it.
    static func crc32(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        guard let p = bytes.baseAddress, bytes.count > 0 else { return seed }
        return anim_crc32(seed, p.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
}
