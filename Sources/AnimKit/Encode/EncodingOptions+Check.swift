extension EncodingOptions {
    /// The most plays `format` can store: GIF 65536 (its loop value is
    /// plays − 1), WebP 65535, APNG 2³¹ − 1 (PNG's four-byte integers stop
    /// there).
    public static func maximumPlays(in format: OutputFormat) -> Int { Formats.writing(format).maximumPlays }

    /// Throws `AnimError.unsupported` naming `file` and the option when an
    /// option is out of range, the same for every format: quality 0–100, effort 0–9,
    /// colours 2–256, plays 0 (forever) to what `format` stores, keyframe
    /// interval and default duration not negative, frame count at least 1.
    public func check(for format: OutputFormat, file: String) throws {
        func refuse(_ reason: String) throws -> Never { throw AnimError.unsupported(file: file, reason: reason) }
        if !(0...100).contains(quality) { try refuse("quality \(quality) is outside 0–100") }
        if !(0...9).contains(effort) { try refuse("effort \(effort) is outside 0–9") }
        if !(2...256).contains(gif.maxColors) { try refuse("colours \(gif.maxColors) is outside 2–256") }
        let most = Self.maximumPlays(in: format)
        if !(0...most).contains(plays) {
            try refuse("\(format.rawValue.uppercased()) stores a play count from 0 (forever) to \(most), not \(plays)")
        }
        if webp.keyframeInterval < 0 {
            try refuse("keyframe interval \(webp.keyframeInterval) is negative (0: libwebp's default)")
        }
        if defaultDuration < .zero { try refuse("default duration \(defaultDuration) is negative") }
        if let frameCount, frameCount < 1 { try refuse("frame count \(frameCount) is not at least 1") }
    }
}
