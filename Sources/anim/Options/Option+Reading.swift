/// The options of the commands that read and report: `info`, `extract`,
/// `bench`.
extension Option {
    static let json = Option(
        "json", short: "j",
        help: "a JSON object a file, on one line (keys: file, format, width, height, frameCount, loopCount, plays,"
            + " frames[index, x, y, width, height, delayMs, durationMs, dispose, blend, keyframe, complete],"
            + " colorConversion (what frames are converted to sRGB from, or null), decodingMemoryBytes (the most"
            + " memory decoding holds on one thread), metadata{iccProfileBytes,"
            + " exifBytes, xmp, text[keyword, text]})")
    static let rawDelays = Option(
        "raw-delays",
        help: "durations are the stored delays (default: as browsers play them, a delay of 10 ms or less lasting"
            + " 100 ms)")

    static let extractFormat = Option(
        "format", short: "f", .choice(["png", "webp", "pam", "ppm", "rgba"]),
        help: "png (default), webp (lossless), pam (RGBA), ppm (RGB, alpha dropped), rgba (raw bytes, no header)")
    static let color = Option(
        "color", .choice(["rgba", "auto"]),
        help: "PNG: rgba (default, 8-bit RGBA) or auto (the smallest lossless colour type: grey, palette,"
            + " grey+alpha, RGB)")
    static let maxSize = Option(
        "max-size", .integer("N", 1...Int.max),
        help: "downsample frames to fit NxN pixels (area average, alpha-weighted; never enlarges)")
    static let name = Option(
        "name", .text("PATTERN"), help: "file names, with one %d or %0Nd for the frame number (default frame-%05d.EXT)")
    static let durations = Option(
        "durations", .text("FILE", .file),
        help: "write the timing to FILE: a line a frame, \"index start_ms duration_ms\" (also: anim info --json)")
    static let extractStats = Option(
        "stats", help: "at the end, one JSON line on stderr: frames, bytes, seconds, peakRSSBytes")

    static let runs = Option("runs", .integer("N", 1...Int.max), help: "passes (default 5)")
    static let decodeAhead = Option(
        "decode-ahead", .integer("N", 0...Int.max),
        help: "frames decoded ahead on other threads (default: one per core; 0 decodes on one thread only)")
    static let benchJSON = Option(
        "json", short: "j",
        help: "one JSON object: frames, width, height, runs, medianMs, minMs, msPerFrame, megapixelsPerSecond,"
            + " peakRSSBytes (with --loops: framesDecodedPerLoop, peakCacheBytes, hits, misses)")
    static let benchLoops = Option(
        "loops", .integer("L", 1...Int.max),
        help: "play every frame in order L times through the frame cache, with prefetch, as a player does")
    static let benchFit = Option("fit", .text("WxH"), help: "with --loops: deliver frames downsampled to fit WxH pixels")
}
