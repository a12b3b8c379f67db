/// `anim play`'s options.
extension Option {
    static let graphicsProtocol = Option(
        "protocol", .choice(["auto", "kitty", "sixel", "iterm2", "text"]),
        help: "how frames are drawn (default auto: what the terminal is found to have, text cells otherwise)")
    static let probe = Option(
        "probe",
        help: "print what was found out about the terminal (graphics, colours, cell size, tmux) and why, then exit")
    static let symbols = Option(
        "symbols", .choice(["auto", "half", "quadrant", "sextant", "octant"]),
        help: "text cells: the block characters (default auto: octants or sextants where the terminal is known to"
            + " draw them, else half blocks; --probe says which)")
    static let ditherCells = Option(
        "dither", .choice(["noise", "ordered", "none"]),
        help: "text cells in 256 colours: how colours between the palette's are shown (default noise: a blue-noise"
            + " pattern, fine and still from frame to frame; ordered: an 8x8 Bayer matrix; none: the nearest colour)")
    static let upscale = Option("upscale", help: "enlarge small animations to fill the box")
    static let cell = Option(
        "cell", .text("WxH"), help: "pixels per terminal cell (default: what the terminal reports, else 10x20)")
    static let width = Option("width", .integer("COLS", 1...Int.max), help: "fit into COLS columns (default: the terminal's)")
    static let height = Option("height", .integer("ROWS", 1...Int.max), help: "fit into ROWS rows (default: the terminal's)")
    static let colorMode = Option(
        "colors", .choice(["24bit", "256"], hidden: ["truecolor"]),
        help: "colours (default: 24bit when COLORTERM says truecolor or 24bit, else 256)")
    static let tolerance = Option(
        "tolerance", .integer("N", 0...16),
        help: "levels per channel a colour on screen may differ from the frame's, to reuse colours already set:"
            + " fewer bytes, no visible change (default 2; 0 draws exactly)")
    static let background = Option(
        "background", .text("none|checker|#rrggbb"),
        help: "what transparent pixels are drawn over (default none: the terminal's own background)")
    static let playLoops = Option(
        "loops", .integer("N", 0...Int.max), aliases: ["loop"],
        help: "plays: 0 forever (default: the file's count on a terminal, 1 when output is not a terminal)")
    static let playSpeed = Option("speed", .number("X", above: 0, atMost: 64), help: "speed factor (default 1)")
    static let playFrames = Option(
        "frames", .text("A-B"), help: "play only frames A to B (0-based, both in; also A- and A)")
    static let duration = Option(
        "duration", .text("TIME"), help: "end after TIME (5, 2.5s, 500ms, 1m), whatever is left of the play")
    static let inline = Option(
        "inline",
        help: "previews: draw where the cursor is, on the screen as it is (no alternate screen, no keys); the"
            + " cursor ends below the picture")
    static let place = Option(
        "place", .text("COLSxROWS@X,Y"),
        help: "previews: draw into that box (X, Y 0-based cells from the top left; also @XxY), the cursor left"
            + " where it was")
    static let clear = Option("clear", help: "previews: blank the box again at the end")
    static let frame = Option(
        "frame", .integer("N", 0...Int.max),
        help: "previews: draw frame N (0-based) and exit; output that is not a terminal (fzf) gets lines of text"
            + " cells, sized by --width and --height or FZF_PREVIEW_COLUMNS and FZF_PREVIEW_LINES")
    static let cacheLimit = Option(
        "cache-limit", .text("SIZE"),
        help: "frame cache budget, e.g. 64M (default: the smaller of 20% of memory and 60% of available memory,"
            + " between 16M and 1G; at most what --max-memory leaves beside the decoding)")
    static let status = Option("status", help: "show a status line (file, frame, speed and direction, dropped)")
    static let grid = Option(
        "grid", .text("COLSxROWS"),
        help: "several files at once, each in its pane with its own timing, row by row (COLS alone: as many rows"
            + " as the files need); more files than panes: n / p page through them")
    static let title = Option("title", help: "each file's name above its picture")
    static let noWait = Option("no-wait", help: "not a terminal: write frames as fast as possible")
    static let playStats = Option(
        "stats",
        help: "at the end, one JSON line on stderr: framesShown, framesDropped, bytesWritten, firstFrameMs,"
            + " meanIntervalMs, stdevIntervalMs, decodedFrames, cacheHits, peakCacheBytes")

    static let playing = OptionGroup(
        title: "options",
        options: [
            .graphicsProtocol, .probe, .symbols, .ditherCells, .upscale, .cell, .width, .height, .colorMode, .tolerance,
            .background, .playLoops, .playSpeed, .playFrames, .duration, .inline, .place, .clear, .frame, .cacheLimit,
            .status, .grid, .title, .noWait, .playStats,
        ])
}
