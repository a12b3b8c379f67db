import AnimKit

/// The encoding options `anim encode` and `anim convert` share.
enum EncodingArguments {
    /// The output format and encoding options from the command line;
    /// options the format cannot honour are refused.
    static func parse(_ args: ParsedArguments, output: String) throws -> (OutputFormat, EncodingOptions) {
        var o = EncodingOptions()
        let format: OutputFormat
        if let f = args[.format]?.lowercased() {
            format = OutputFormat(pathExtension: "." + f)!  // checked against the declaration
        } else {
            guard let v = OutputFormat(pathExtension: output) else {
                throw UsageError(
                    message: "cannot tell the format from '\(output)': name it .gif, .png, .apng or .webp, or give --format")
            }
            format = v
        }
        try args.refuseOptions(unhonouredBy: format)
        if args[.fps] != nil && args[.delay] != nil { throw UsageError(message: "give --fps or --delay, not both") }
        if let v = args.number(.fps) {
            o.defaultDuration = .nanoseconds(Int64((1e9 / v).rounded()))
            if v == v.rounded(), 1_000_000_000 % Int(v) != 0 { o.defaultDuration = .seconds(1) / Int(v) }
        } else if let ms = args.int(.delay) {
            o.defaultDuration = .milliseconds(ms)
        }
        if let plays = args.int(.loops) { o.plays = plays }
        o.quality = args.int(.quality) ?? 75
        o.effort = args.int(.effort) ?? 5
        o.maxColors = args.int(.colors) ?? 256
        o.lossy = args.int(.lossy) ?? 0
        if let d = args[.dither] { o.dither = EncodingOptions.Dither(rawValue: d.lowercased())! }  // declared choices
        o.lossless = args.flag(.lossless)
        o.keepHiddenColors = args.flag(.exact)
        o.allowMixed = args.flag(.allowMixed)
        return (format, o)
    }
}
