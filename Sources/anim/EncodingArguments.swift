import AnimKit

/// The options `anim encode` and `anim convert` share.
enum EncodingArguments {
    static let valued: Set<String> = [
        "--fps", "--delay", "--loop", "--quality", "--effort", "--colors", "--dither", "--format", "--lossy",
    ]
    static let flags: Set<String> = ["--lossless", "--allow-mixed", "--stats", "--exact"]

    static let usage = """
          --fps N              encode: the frames' rate (default 10);
                               convert: resampled to N frames a second
                               (a frame shows at the ticks whose middle
                               it covers; repeats merge)
          --delay MS           milliseconds per frame (instead of --fps)
          --loop N             plays: 0 forever (encode default), N times
                               (convert default: the input's)
          --quality Q          0-100 (default 75): WebP lossy quality; effort
                               of the GIF palette search and PNG compression
          --effort N           0-9 (default 5): time spent on a smaller file;
                               WebP from 7 searches keyframes and blending
                               per frame (libwebp's minimize_size, as
                               img2webp -min_size); APNG at 9 adds a
                               zopfli pass (17-57 times slower)
          --lossless           WebP: lossless frames
          --exact              keep the colour under fully transparent
                               pixels (as cwebp -exact); by default it is
                               not kept (it never shows)
          --allow-mixed        WebP: lossy or lossless chosen per frame
          --colors N           GIF: colours per palette, 2-256 (default 256)
          --lossy N            GIF: lossy LZW, 1-200 (as gifsicle --lossy;
                               80 is a common choice): smaller, with the
                               mean PSNR against the frames reported
          --dither none|fs|ordered
                               GIF dithering (default fs: Floyd-Steinberg)
          --format gif|apng|webp
                               the output format (default: from OUT's
                               extension: .gif, .png or .apng, .webp)
          --stats              at the end, one JSON line on stderr:
                               framesAdded, framesWritten, bytesWritten,
                               seconds, peakRSSBytes
        """

    /// The output format and encoding options from the command line.
    static func parse(_ args: ParsedArguments, output: String) throws -> (OutputFormat, EncodingOptions) {
        var o = EncodingOptions()
        let format: OutputFormat
        if let f = args.values["--format"] {
            guard let v = OutputFormat(rawValue: f.lowercased()) ?? (f.lowercased() == "png" ? .apng : nil) else {
                throw UsageError(message: "--format needs gif, apng or webp, not '\(f)'")
            }
            format = v
        } else {
            guard let v = OutputFormat(pathExtension: output) else {
                throw UsageError(
                    message: "cannot tell the format from '\(output)': name it .gif, .png, .apng or .webp, or give --format")
            }
            format = v
        }
        if args.values["--fps"] != nil && args.values["--delay"] != nil {
            throw UsageError(message: "give --fps or --delay, not both")
        }
        if let fps = args.values["--fps"] {
            guard let v = Double(fps), v > 0, v <= 1000 else {
                throw UsageError(message: "--fps needs a number in (0, 1000], not '\(fps)'")
            }
            o.defaultDuration = .nanoseconds(Int64((1e9 / v).rounded()))
            if v == v.rounded(), 1_000_000_000 % Int(v) != 0 { o.defaultDuration = .seconds(1) / Int(v) }
        } else if args.values["--delay"] != nil {
            o.defaultDuration = .milliseconds(try args.int("--delay", default: 100, min: 1, max: 655_350))
        }
        if args.values["--loop"] != nil { o.plays = try args.int("--loop", default: 0, min: 0, max: 65535) }
        o.quality = try args.int("--quality", default: 75, min: 0, max: 100)
        o.effort = try args.int("--effort", default: 5, min: 0, max: 9)
        o.maxColors = try args.int("--colors", default: 256, min: 2, max: 256)
        if args.values["--lossy"] != nil {
            o.lossy = try args.int("--lossy", default: 0, min: 1, max: 200)
            if format != .gif { throw UsageError(message: "--lossy is for GIF output (WebP: --quality)") }
        }
        if let d = args.values["--dither"] {
            guard let v = EncodingOptions.Dither(rawValue: d.lowercased()) else {
                throw UsageError(message: "--dither needs none, fs or ordered, not '\(d)'")
            }
            o.dither = v
        }
        o.lossless = args.flag("--lossless")
        o.keepHiddenColors = args.flag("--exact")
        o.allowMixed = args.flag("--allow-mixed")
        return (format, o)
    }
}
