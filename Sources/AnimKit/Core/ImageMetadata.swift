/// What a file says about its pixels beside them: colour profile, EXIF,
/// XMP and text. Read from every format that carries them:
///
/// - GIF: comment extensions, the `ICCRGBG1012` and `XMP DataXMP`
///   application extensions;
/// - PNG and APNG: `iCCP`, `eXIf`, `tEXt`, `zTXt` and `iTXt` (XMP is the
///   `iTXt` keyword `XML:com.adobe.xmp`);
/// - WebP: the `ICCP`, `EXIF` and `XMP ` chunks.
public struct ImageMetadata: Equatable, Sendable {
    /// The ICC colour profile, as stored (decompressed for PNG).
    public var iccProfile: [UInt8]?
    /// The EXIF block (TIFF header onwards), as stored.
    public var exif: [UInt8]?
    /// The XMP packet.
    public var xmp: String?
    /// Text in file order: a GIF comment has an empty keyword; PNG text
    /// chunks keep theirs (`Title`, `Comment`, `Software`…).
    public var text: [TextEntry] = []

    /// One text entry.
    public struct TextEntry: Equatable, Sendable {
        /// The PNG keyword, or "" for a GIF comment.
        public var keyword: String
        /// The text.
        public var text: String

        /// An entry of `keyword` and `text`.
        public init(keyword: String, text: String) {
            self.keyword = keyword
            self.text = text
        }
    }

    /// No metadata.
    public init() {}

    /// True when the file carries none of it.
    public var isEmpty: Bool { iccProfile == nil && exif == nil && xmp == nil && text.isEmpty }

    /// The most metadata kept from one file, all blocks together (a
    /// profile, EXIF, XMP, texts): blocks past it are skipped, compressed
    /// ones are not inflated past what is left.
    static let maximumBlock = 16 << 20
}
