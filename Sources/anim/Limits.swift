import AnimKit

/// `--max-canvas-pixels N`, `--max-frames N`, `--max-decoded-bytes N`:
/// the decoder's limits (`DecodingLimits`), taken by every command that
/// reads an animation. A file over a limit is refused before anything is
/// allocated, with a message naming the option that raises it.
enum Limits {
    static let options: [(flag: String, limit: String)] = [
        ("--max-canvas-pixels", "maxCanvasPixels"), ("--max-frames", "maxFrameCount"),
        ("--max-decoded-bytes", "maxDecodedBytes"),
    ]
    static let valued = Set(options.map(\.flag))
    /// Flags every command that reads takes: `--merge-zero-delay`,
    /// `--no-color-management`.
    static let flags: Set<String> = ["--merge-zero-delay", "--no-color-management"]

    static func parse(_ args: ParsedArguments) throws -> DecodingLimits {
        var limits = DecodingLimits()
        limits.maxCanvasPixels = try args.int("--max-canvas-pixels", default: limits.maxCanvasPixels)
        limits.maxFrameCount = try args.int("--max-frames", default: limits.maxFrameCount)
        limits.maxDecodedBytes = try args.int("--max-decoded-bytes", default: limits.maxDecodedBytes)
        return limits
    }

    /// `options` with the limits and flags of this command line:
    /// `--merge-zero-delay` (`DecodingOptions.mergesZeroDelayImages`),
    /// `--no-color-management` (the values as stored, not converted to sRGB).
    static func decoding(_ options: DecodingOptions, _ args: ParsedArguments) -> DecodingOptions {
        var options = options
        options.limits = args.limits
        if args.flag("--merge-zero-delay") { options.mergesZeroDelayImages = true }
        if args.flag("--no-color-management") { options.colorManagement = .none }
        return options
    }

    /// The message for a file over a limit, naming the option to raise it.
    static func message(file: String, limit: String, value: Int, maximum: Int) -> String {
        let flag = options.first { $0.limit == limit }?.flag ?? limit
        return "\(file): \(limit) \(value) exceeds the limit of \(maximum) (raise it with \(flag) N)"
    }

    static let usage: String = {
        let d = DecodingLimits()
        return """
            limits (every command that reads an animation):
              --max-canvas-pixels N   largest canvas, in pixels (default \(d.maxCanvasPixels))
              --max-frames N          most frames in a file (default \(d.maxFrameCount))
              --max-decoded-bytes N   most pixel bytes decoded over all frames (default \(d.maxDecodedBytes))
              --merge-zero-delay      GIF: draw an image without delay with the next frame, as
                                      GIF89a describes it (default: every image is a frame, as
                                      browsers show it, a delay of 0 playing as 100 ms)
              --no-color-management   the colour values as stored (default: converted to sRGB
                                      from the file's ICC profile or PNG gAMA/cHRM, as browsers
                                      show them)
            """
    }()
}
