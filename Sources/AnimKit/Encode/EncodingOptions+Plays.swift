extension EncodingOptions {
    /// `plays` for an animation that plays `source` times in `format`,
    /// with the adjustment when the format cannot hold it: WebP counts to
    /// 65535 plays, GIF to 65536 (its loop value is plays − 1).
    public static func plays(_ source: Plays, in format: OutputFormat) -> (plays: Int, adjustment: TranscodeAdjustment?) {
        guard case .count(let n) = source else { return (0, nil) }
        let limit = maximumPlays(in: format)
        guard n > limit else { return (max(n, 1), nil) }
        return (limit, .plays(n, writtenAs: limit, format: format))
    }

    /// What `format`'s writer chooses from every frame before the first
    /// (GIF: the global table, unless one is given); `frame(i)` decodes
    /// frame i of `frameCount`, read only by a format that chooses so.
    package mutating func prepare(for format: OutputFormat, frameCount: Int, frame: (Int) throws -> RGBAImage) {
        Formats.writing(format).prepare?(&self, frameCount, frame)
    }
}
