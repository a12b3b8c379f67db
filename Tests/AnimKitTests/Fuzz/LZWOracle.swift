// anim's GIF LZW decoder against giflib and a textbook decoder, shared by
// the tests (GIFLZWOracleTests) and the fuzz-lzw target (Tools/fuzz).
import CGIF

#if canImport(AnimKit)
    @testable import AnimKit
#endif

/// anim's LZW decoder against giflib, its oracle: wherever giflib decodes an
/// image, both give the same indices.
///
/// One difference is by design: at a code past the next free one, anim
/// stops as browsers do (Chromium's decoder is wuffs, which stops there
/// with "bad code"), while giflib makes up a string and goes on. There the
/// indices anim decoded must equal giflib's, and anim must stop exactly
/// where `reference` — the plain prefix-chain decoder of the GIF89a
/// specification, written here — stops.
enum LZWOracle {
    /// What the decoders made of the images compared.
    struct Comparison {
        var compared = 0, giflibGaveUp = 0, stoppedWhereGiflibWentOn = 0, differing: [String] = []
    }

    /// The textbook decoder (a prefix chain per code), with the browsers'
    /// rules: the indices decoded before the end, an invalid code or the
    /// end of data.
    static func reference(_ raw: UnsafeRawBufferPointer, offset: Int, end: Int, count: Int) -> [UInt8] {
        guard offset < end, count > 0, (1...11).contains(raw[offset]) else { return [] }
        var data = [UInt8]()
        var p = offset + 1
        while p < end, raw[p] > 0 {
            data += raw[(p + 1)..<min(p + 1 + Int(raw[p]), end)]
            p += 1 + Int(raw[p])
        }
        let minSize = Int(raw[offset])
        let clear = 1 << minSize
        var prefix = [Int](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        for c in 0..<clear { suffix[c] = UInt8(truncatingIfNeeded: c) }
        var out = [UInt8]()
        var next = clear + 2
        var width = minSize + 1
        var prev = -1
        var bit = 0
        var read = 0  // codes read since the clear code
        func string(_ code: Int) -> [UInt8] {
            var s = [UInt8]()
            var c = code
            while c >= 0 {
                s.append(suffix[c])
                c = prefix[c]
            }
            return s.reversed()
        }
        while out.count < count, bit + width <= data.count * 8 {
            var code = 0
            for k in 0..<width where data[(bit + k) / 8] & (1 << ((bit + k) % 8)) != 0 { code |= 1 << k }
            bit += width
            if code == clear {
                (next, width, prev, read) = (clear + 2, minSize + 1, -1, 0)
                continue
            }
            if code == clear + 1 || code > next || (code == next && prev < 0) { break }
            // The width grows once the codes read since the clear code,
            // counted from the first free code, pass what it can say.
            read += 1
            if clear + 1 + read < 4097 && clear + 1 + read >= 1 << width && width < 12 { width += 1 }
            if prev >= 0 && next < 4096 {
                prefix[next] = prev
                suffix[next] = code < next ? string(code)[0] : string(prev)[0]
                next += 1
            }
            out += string(code)
            prev = code
        }
        return Array(out.prefix(count))
    }

    /// Decodes every image of `file` with anim's decoder, the reference
    /// and giflib, and adds what they made of it to `result`.
    static func compare(_ file: [UInt8], name: String, into result: inout Comparison) {
        file.withUnsafeBytes { raw in
            guard let parsed = try? GIFParser(bytes: raw, file: name, limits: DecodingLimits()).parse() else { return }
            for (i, image) in parsed.images.enumerated() where image.rect.width * image.rect.height > 0 {
                let total = image.rect.width * image.rect.height
                var own = [UInt8](repeating: 0, count: total)
                let valid = own.withUnsafeMutableBufferPointer {
                    GIFLZWDecoder.decode(raw, offset: image.dataOffset, end: image.dataEnd, into: $0.baseAddress!, count: total)
                }
                let decoded = Array(own.prefix(valid))
                if decoded != reference(raw, offset: image.dataOffset, end: image.dataEnd, count: total) {
                    result.differing.append("\(name) image \(i): not as the reference decoder")
                }
                guard let oracle = GIFDecoder.giflibIndices(raw, header: parsed.headerLength, image: image) else {
                    result.giflibGaveUp += 1
                    continue
                }
                result.compared += 1
                if decoded != Array(oracle.prefix(valid)) {
                    let at = decoded.indices.first { decoded[$0] != oracle[$0] }!
                    result.differing.append("\(name) image \(i): first difference from giflib at \(at)")
                } else if valid < total {
                    result.stoppedWhereGiflibWentOn += 1
                }
            }
        }
    }

    /// A one-image GIF of `width`×`height` with a global table of
    /// `1 << bits` entries and `data` as its LZW data (code size byte on).
    static func file(width: Int, height: Int, bits: Int, data: [UInt8]) -> [UInt8] {
        var b = Array("GIF89a".utf8) + [UInt8(width & 255), UInt8(width >> 8), UInt8(height & 255), UInt8(height >> 8)]
        b += [0x80 | UInt8(bits - 1), 0, 0] + (0..<(3 << bits)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        b += [0x2C, 0, 0, 0, 0, UInt8(width & 255), UInt8(width >> 8), UInt8(height & 255), UInt8(height >> 8), 0]
        return b + data + [0x3B]
    }
}

// giflib, the oracle: anim itself does not call it (its GIF reading and
// writing are plain Swift); only these tests and the fuzz target do.

extension GIFDecoder {
    /// The bytes giflib reads, and how many it has read.
    fileprivate struct GIFLibStream {
        var bytes: [UInt8]
        var position = 0
    }

    fileprivate static let read: InputFunc = { gif, buffer, wanted in
        guard let gif, let buffer, let stream = gif.pointee.UserData?.assumingMemoryBound(to: GIFLibStream.self) else {
            return 0
        }
        let n = max(0, min(Int(wanted), stream.pointee.bytes.count - stream.pointee.position))
        stream.pointee.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + stream.pointee.position, count: n) }
        stream.pointee.position += n
        return Int32(n)
    }

    /// `image`'s colour indices in stored order as giflib decodes them, or
    /// nil when giflib gives up on it: the oracle that `GIFLZWDecoder` is
    /// tested against. giflib reads `bytes[0..<header]` (the file's header,
    /// screen descriptor and global table), then the image's bytes only.
    static func giflibIndices(_ bytes: UnsafeRawBufferPointer, header: Int, image: GIFImageRecord) -> [UInt8]? {
        guard image.rect.width > 0, image.rect.height > 0 else { return [] }
        let stream = UnsafeMutablePointer<GIFLibStream>.allocate(capacity: 1)
        stream.initialize(to: GIFLibStream(bytes: Array(bytes[0..<header]) + bytes[image.descriptorOffset..<image.dataEnd]))
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
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
