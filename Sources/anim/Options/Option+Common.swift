import AnimKit

/// The options of every command, and of every command that reads an
/// animation.
extension Option {
    static let help = Option("help", short: "h", help: "show this help")
    static let version = Option("version", short: "V", help: "print anim's version and the libraries it uses")
    static let quiet = Option("quiet", short: "q", help: "no progress and no warnings (errors are still printed)")
    static let output = Option(
        "output", short: "o", .text("OUT", .file),
        help: "the file to write (instead of OUT after the input); - is standard output")

    static let maxMemory = Option(
        "max-memory", .text("SIZE"),
        help: "the most memory a command may use for pictures, e.g. 512M (default: a quarter of physical memory,"
            + " at most 2G, here \(MemoryBudget.describe(DecodingLimits.defaultMaxMemory))): work that would need"
            + " more is done in smaller pieces, or refused")
    static let mergeZeroDelay = Option(
        "merge-zero-delay",
        help: "GIF: draw an image without delay with the next frame, as GIF89a describes it (default: every image"
            + " is a frame, as browsers show it, a delay of 0 playing as 100 ms)")
    static let noColorManagement = Option(
        "no-color-management",
        help: "the colour values as stored (default: converted to sRGB from the file's ICC profile or PNG"
            + " gAMA/cHRM, as browsers show them)")

    /// Every command's own.
    static let common = OptionGroup(title: "common", options: [.quiet, .help])
    /// Every command that reads an animation.
    static let reading = OptionGroup(
        title: "reading (every command that reads an animation)",
        options: Limits.entries.map(\.option) + [.maxMemory, .mergeZeroDelay, .noColorManagement])
}
