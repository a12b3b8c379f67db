/// Reads the PNG chunks that carry metadata (`iCCP`, `eXIf`, `tEXt`,
/// `zTXt`, `iTXt`). A chunk that does not parse is skipped: metadata never
/// stops a file from opening.
enum PNGMetadata {
    /// `budget`: bytes metadata may still take in all (each block kept or
    /// inflated is charged to it), so many small chunks that inflate well
    /// cannot fill memory either.
    static func read(_ type: PNGChunkType, _ data: UnsafeRawBufferPointer, into m: inout ImageMetadata, budget: inout Int) {
        guard data.count <= budget else { return }
        let (texts, hadICC, hadEXIF, hadXMP) = (m.text.count, m.iccProfile != nil, m.exif != nil, m.xmp != nil)
        defer {
            // The chunk, and what it added (inflated) to what is kept.
            var added = m.text.count > texts ? m.text[texts].text.utf8.count : 0
            if !hadICC { added += m.iccProfile?.count ?? 0 }
            if !hadEXIF { added += m.exif?.count ?? 0 }
            if !hadXMP { added += m.xmp?.utf8.count ?? 0 }
            budget -= max(data.count, 1) + added
        }
        let limit = budget
        let bytes = [UInt8](data)
        switch type {
        case .iCCP:
            // name, 0, method 0, zlib stream
            guard m.iccProfile == nil, let z = bytes.firstIndex(of: 0), z + 2 <= bytes.count, bytes[z + 1] == 0 else { return }
            m.iccProfile = Zlib.inflate(Array(bytes[(z + 2)...]), limit: limit)
        case .eXIf:
            if m.exif == nil { m.exif = bytes }
        case .tEXt:
            guard let z = bytes.firstIndex(of: 0) else { return }
            m.text.append(.init(keyword: latin1(bytes[..<z]), text: latin1(bytes[(z + 1)...])))
        case .zTXt:
            guard let z = bytes.firstIndex(of: 0), z + 2 <= bytes.count, bytes[z + 1] == 0,
                let text = Zlib.inflate(Array(bytes[(z + 2)...]), limit: limit)
            else { return }
            m.text.append(.init(keyword: latin1(bytes[..<z]), text: latin1(text[...])))
        case .iTXt:
            readInternational(bytes, into: &m, limit: limit)
        default:
            break
        }
    }

    /// keyword 0 flag method language 0 translated-keyword 0 text (UTF-8,
    /// zlib-compressed when flag is 1).
    private static func readInternational(_ bytes: [UInt8], into m: inout ImageMetadata, limit: Int) {
        guard let z = bytes.firstIndex(of: 0), z + 3 <= bytes.count else { return }
        let compressed = bytes[z + 1] == 1
        guard let language = bytes[(z + 3)...].firstIndex(of: 0),
            let translated = bytes[(language + 1)...].firstIndex(of: 0)
        else { return }
        let raw = Array(bytes[(translated + 1)...])
        guard let text = compressed ? Zlib.inflate(raw, limit: limit) : raw else { return }
        let keyword = latin1(bytes[..<z])
        let string = String(decoding: text, as: UTF8.self)
        if keyword == "XML:com.adobe.xmp" {
            if m.xmp == nil { m.xmp = string }
        } else {
            m.text.append(.init(keyword: keyword, text: string))
        }
    }

    /// PNG's keywords and tEXt/zTXt are ISO 8859-1.
    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
