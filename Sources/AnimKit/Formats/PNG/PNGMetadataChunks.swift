/// The chunks that carry an `ImageMetadata` in a PNG, in the order the
/// writer puts them before `PLTE` and the image data: `iCCP` (the profile
/// deflated, named "ICC Profile" as Pillow and libpng name it), `eXIf`,
/// the XMP packet as `iTXt` keyword `XML:com.adobe.xmp`, then each text
/// entry as `tEXt` when keyword and text are Latin-1, else `iTXt` (UTF-8).
/// A GIF comment (empty keyword) becomes keyword `Comment`; a keyword PNG
/// cannot hold (over 79 bytes, outside Latin-1, spaces at its ends) is
/// kept in the text, as `Comment` "keyword: text".
enum PNGMetadataChunks {
    static func chunks(_ m: ImageMetadata) -> [(type: PNGChunkType, body: [UInt8])] {
        var out: [(type: PNGChunkType, body: [UInt8])] = []
        if let icc = m.iccProfile, !icc.isEmpty {
            out.append((.iCCP, Array("ICC Profile".utf8) + [0, 0] + Zlib.compress(icc)))
        }
        if let exif = m.exif, !exif.isEmpty { out.append((.eXIf, exif)) }
        if let xmp = m.xmp { out.append((.iTXt, iTXt("XML:com.adobe.xmp", xmp))) }
        for entry in m.text {
            var keyword = entry.keyword.isEmpty ? "Comment" : entry.keyword
            var text = entry.text
            if latin1(keyword) == nil || keyword.utf8.count > 79 || keyword.first == " " || keyword.last == " " {
                text = keyword + ": " + text
                keyword = "Comment"
            }
            if let k = latin1(keyword), let t = latin1(text) {
                out.append((.tEXt, k + [0] + t))
            } else {
                out.append((.iTXt, iTXt(keyword, text)))
            }
        }
        return out
    }

    /// An uncompressed `iTXt` body: keyword, no language, no translation.
    private static func iTXt(_ keyword: String, _ text: String) -> [UInt8] {
        (latin1(keyword) ?? Array("Comment".utf8)) + [0, 0, 0, 0, 0] + Array(text.utf8)
    }

    /// The Latin-1 bytes of `s`, or nil when it has a character past U+00FF
    /// or a NUL (which would end the field).
    static func latin1(_ s: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            guard u.value < 256, u.value != 0 else { return nil }
            bytes.append(UInt8(u.value))
        }
        return bytes
    }
}
