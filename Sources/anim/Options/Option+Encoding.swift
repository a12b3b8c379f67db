import AnimKit

/// The options of the commands that write an animation (`encode`,
/// `convert`, `optimize`).
extension Option {
    static let format = Option(
        "format", short: "f", .choice(["gif", "apng", "webp"], hidden: ["png"]),
        help: "the output format (default: from OUT's extension: .gif, .png or .apng, .webp)")
    static let fps = Option(
        "fps", .number("N", above: 0, atMost: 1000),
        help: "encode: the frames' rate (default 10); convert: resampled to N frames a second (a frame shows at"
            + " the ticks whose middle it covers; repeats merge)")
    static let delay = Option(
        "delay", .integer("MS", 1...655_350), help: "milliseconds per frame, for every frame (instead of --fps)")
    static let loops = Option(
        "loops", .integer("N", 0...65535), aliases: ["loop"],
        help: "plays: 0 forever (encode's default), N times (convert's default: the input's)")
    static let quality = Option(
        "quality", .integer("Q", 0...100),
        help: "0-100 (default 75): WebP's lossy quality; the effort of GIF's palette search and of PNG's compression")
    static let effort = Option(
        "effort", .integer("N", 0...9),
        help: "0-9 (default 5; optimize 9): time spent on a smaller file. WebP from 7 searches keyframes and"
            + " blending per frame (libwebp's minimize_size, as img2webp -min_size); APNG at 9 adds a zopfli pass"
            + " (17-57 times slower), from 7 on animations of at most 16 KiB of rows")
    static let lossless = Option(
        "lossless", formats: [.webp, .apng], help: "WebP: lossless frames (APNG always is; GIF cannot be)")
    static let exact = Option(
        "exact", formats: [.webp, .apng],
        help: "keep the colour under fully transparent pixels (as cwebp -exact); by default it is not kept (it"
            + " never shows; a GIF stores none)")
    static let allowMixed = Option(
        "allow-mixed", formats: [.webp], help: "WebP: lossy or lossless chosen per frame")
    static let colors = Option(
        "colors", .integer("N", 2...256), formats: [.gif], help: "GIF: colours per palette, 2-256 (default 256)")
    static let lossy = Option(
        "lossy", .integer("N", 1...200), formats: [.gif],
        help: "GIF: lossy LZW, 1-200 (as gifsicle --lossy; 80 is a common choice): smaller, with the mean PSNR"
            + " against the frames reported (WebP: --quality)")
    static let dither = Option(
        "dither", .choice(["none", "fs", "ordered"]), formats: [.gif],
        help: "GIF: how colours outside the palette are approximated (default fs: Floyd-Steinberg; ordered: an"
            + " 8x8 Bayer matrix, stable from frame to frame)")
    static let strip = Option("strip", help: "write no metadata")
    static let maxBytes = Option(
        "max-bytes", .text("N"),
        help: "the output fits N bytes (suffixes K, M): the settings are stepped through in this order until it"
            + " does: lossy quality (GIF --lossy 20…200; WebP --quality 60…5), GIF colours (128…16), two thirds"
            + " then half of the frame rate, then the size (×0.9 … ×0.125)")
    static let encodeStats = Option(
        "stats",
        help: "at the end, one JSON line on stderr: framesAdded, framesWritten, bytesWritten, seconds,"
            + " peakRSSBytes (with several inputs: a line a file, with file, output, bytesIn, bytesOut, seconds,"
            + " outcome: written, partial (a damaged input, written up to the damage), skipped or failed)")
    static let outDir = Option(
        "out-dir", .text("DIR", .directory),
        help: "several inputs: write each into DIR, named as the input with the output format's extension")
    static let skipExisting = Option(
        "skip-existing", help: "several inputs: leave an output that is newer than its input as it is")

    static let encoding = OptionGroup(
        title: "encoding",
        options: [
            .format, .fps, .delay, .loops, .quality, .effort, .lossless, .exact, .allowMixed, .colors, .lossy, .dither,
            .encodeStats,
        ])
}

/// `anim optimize`'s own.
extension Option {
    static let optimizeEffort = Option(
        "effort", .integer("N", 0...9), help: "0-9 (default 9): time spent on a smaller file (see anim encode --help)")
    static let optimizeStats = Option(
        "stats",
        help: "a JSON line a file on stderr: file, output, bytesIn, bytesOut, seconds, outcome (written, kept,"
            + " skipped, failed)")
}
