extension EncodingOptions {
    /// The most plays `format` can store: GIF 65536 (its loop value is
    /// plays − 1), WebP 65535, APNG 2³¹ − 1 (PNG's four-byte integers stop
    /// there).
    public static func maximumPlays(in format: OutputFormat) -> Int { Formats.writing(format).maximumPlays }

    /// Throws an `AnimError` (an `EncodingProblem`, code `unsupported`)
    /// naming `file` and the option when an option is out of range, the
    /// same for every format: quality 0–100, effort 0–9, colours 2–256,
    /// plays 0 (forever) to what `format` stores, keyframe interval and
    /// default duration not negative, frame count at least 1.
    public func check(for format: OutputFormat, file: String) throws {
        func refuse(_ problem: EncodingProblem) throws -> Never { throw AnimError(file: file, problem) }
        if !(0...100).contains(quality) { try refuse(.quality(quality)) }
        if !(0...9).contains(effort) { try refuse(.effort(effort)) }
        if !(2...256).contains(gif.maxColors) { try refuse(.colors(gif.maxColors)) }
        let most = Self.maximumPlays(in: format)
        if !(0...most).contains(plays) { try refuse(.plays(plays, format: format, maximum: most)) }
        if webp.keyframeInterval < 0 { try refuse(.keyframeInterval(webp.keyframeInterval)) }
        if defaultDuration < .zero { try refuse(.defaultDuration(defaultDuration)) }
        if let frameCount, frameCount < 1 { try refuse(.frameCount(frameCount)) }
    }
}
