extension ImageSource {
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
        guard self.format.outputFormat == format else { return }
        codec.sameFormat(&options, keepingDelays && self.options.durationPolicy == .raw)
    }
}
