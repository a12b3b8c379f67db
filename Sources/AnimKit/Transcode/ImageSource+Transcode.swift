extension ImageSource {
    /// Writes every frame, with its duration, the source's play count and
    /// its metadata, to `path` (format from the extension unless given),
    /// through a temporary file renamed into place: a `Transcoder` without
    /// edits. `options.plays` is taken from the source unless
    /// `keepingPlays` is false; `options.metadata` too, unless
    /// `keepingMetadata` is false or it is set already. `progress` is
    /// called after each frame with the frames written and the source's count.
    public func transcode(
        toPath path: String, format: OutputFormat? = nil, options: EncodingOptions = EncodingOptions(),
        keepingPlays: Bool = true, keepingMetadata: Bool = true, progress: (_ written: Int, _ of: Int) -> Void = { _, _ in }
    ) throws -> TranscodeReport {
        guard let format = format ?? OutputFormat(pathExtension: path) else {
            throw AnimError.unsupported(file: path, reason: "no output format for this name (use .gif, .png, .apng or .webp)")
        }
        return try transcode(.path(path), format, options, keepingPlays, keepingMetadata, progress)
    }

    /// As `transcode(toPath:)`, into memory: the report's `data` holds the file.
    public func transcode(
        to format: OutputFormat, options: EncodingOptions = EncodingOptions(),
        keepingPlays: Bool = true, keepingMetadata: Bool = true, progress: (_ written: Int, _ of: Int) -> Void = { _, _ in }
    ) throws -> TranscodeReport {
        try transcode(.memory, format, options, keepingPlays, keepingMetadata, progress)
    }

    private func transcode(
        _ output: TranscodeOutput, _ format: OutputFormat, _ options: EncodingOptions, _ keepingPlays: Bool,
        _ keepingMetadata: Bool, _ progress: (Int, Int) -> Void
    ) throws -> TranscodeReport {
        let keeps = Transcoder.Keep.durations.union(keepingPlays ? .plays : []).union(keepingMetadata ? .metadata : [])
        return try Transcoder(self, format: format, options: options, keeping: keeps).write(to: output) {
            if case .frames(let written, let count) = $0 { progress(written, count) }
        }
    }

    /// The source whose frames are written: this one, or, when the output
    /// keeps the ICC profile and this source converts from it, the same
    /// bytes read as stored (`Transcoder`).
    func reader(keepingProfile: Bool) throws -> ImageSource {
        guard keepingProfile, colorConversion != nil else { return self }
        var stored = options
        stored.colorManagement = .none
        return try reopened(options: stored)
    }

    /// What writing this source in `format` sets in `options`: what its
    /// codec chooses from every frame (`ImageCodec.prepare`, GIF's global
    /// table unless one is given; the frames decoded with a source of its
    /// own); from a source of that same format, what it keeps
    /// (`ImageCodec.sameFormat`: GIF's exact colours and, when the source
    /// was read with raw delays and `keepingDelays`, its delays as stored).
    func prepare(_ options: inout EncodingOptions, for format: OutputFormat, keepingDelays: Bool) {
        let codec = Formats.writing(format)
        if options.prescan == nil, let prepare = codec.prepare, let scan = try? reopened() {
            prepare(&options, scan.frameCount, scan.frame(at:))
        }
        guard codec.reads.contains(self.format) else { return }
        codec.sameFormat(&options, keepingDelays && self.options.durationPolicy == .raw)
    }
}
