extension ImageMetadata {
    /// What of this metadata `format` cannot hold, in words (empty when it
    /// keeps everything): GIF has no EXIF block; WebP has no text chunk.
    /// PNG text keywords are kept in a GIF comment as "keyword: text".
    public func lost(in format: OutputFormat) -> [String] { Formats.writing(format).lost(self) }
}
