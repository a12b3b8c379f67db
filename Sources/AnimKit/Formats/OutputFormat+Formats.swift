extension OutputFormat {
    /// The format for a file name's extension (`.gif`, `.png`/`.apng`, `.webp`).
    public init?(pathExtension path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        guard let writing = Formats.all.lazy.compactMap(\.writing).first(where: { $0.extensions.contains(ext) }) else {
            return nil
        }
        self = writing.output
    }

    /// The extension a file of this format is named with, without the
    /// dot: `png` for APNG.
    public var fileExtension: String { Formats.writing(self).extensions[0] }

    /// Whether a source of this same format is rewritten from its images
    /// and delays as stored (`DecodingOptions.imagesAsStored`): GIF.
    package var rewritesAsStored: Bool { Formats.writing(self).rewritesAsStored }
}
