extension ImageMetadata {
    /// What of this metadata `format` cannot hold, in words (empty when it
    /// keeps everything): GIF has no EXIF block; WebP has no text chunk.
    /// PNG text keywords are kept in a GIF comment as "keyword: text".
    public func lost(in format: OutputFormat) -> [String] {
        switch format {
        case .apng: return []
        case .gif: return exif == nil ? [] : ["EXIF (\(exif!.count) bytes): GIF has no EXIF block"]
        case .webp:
            return text.isEmpty ? [] : ["\(text.count) text entr\(text.count == 1 ? "y" : "ies"): WebP has no text chunk"]
        }
    }

    /// The GIF comment for a text entry: its text, after "keyword: " unless
    /// the keyword is empty (a GIF comment) or `Comment`.
    static func gifComment(_ entry: TextEntry) -> String {
        entry.keyword.isEmpty || entry.keyword == "Comment" ? entry.text : entry.keyword + ": " + entry.text
    }
}
