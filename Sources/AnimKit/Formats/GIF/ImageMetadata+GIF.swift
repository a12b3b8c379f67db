extension ImageMetadata {
    /// The GIF comment for a text entry: its text, after "keyword: " unless
    /// the keyword is empty (a GIF comment) or `Comment`.
    static func gifComment(_ entry: TextEntry) -> String {
        entry.keyword.isEmpty || entry.keyword == "Comment" ? entry.text : entry.keyword + ": " + entry.text
    }
}
