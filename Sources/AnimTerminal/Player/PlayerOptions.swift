import AnimKit

/// How `Player` plays.
public struct PlayerOptions: Sendable {
    /// Cell box to fit into; nil: the terminal's size (80×24 when not a terminal).
    public var columns: Int?
    /// Rows of the cell box, including any kept for the status line; nil:
    /// the terminal's (24 when not a terminal).
    public var rows: Int?
    /// How text cells send colours (graphics protocols ignore it).
    public var colorMode: ColorMode = .trueColor
    /// What transparent pixels are drawn over.
    public var background: Background = .none
    /// Levels per channel a colour on screen may differ from the frame's,
    /// so that a colour already set can be reused (0: exact). At 2 the
    /// difference cannot be seen, and the benchmark clips cost 9% (sprite)
    /// to 14% (1280×720 gradient) fewer bytes.
    public var colorTolerance = 2
    /// Plays; nil: the file's own count on a terminal, 1 otherwise.
    public var loops: Int?
    /// Playback speed: 2 plays twice as fast.
    public var speed: Double = 1
    /// Not a terminal: write frames as fast as possible.
    public var noWait = false
    /// In interactive mode, a status line on the last row: name, frame,
    /// speed and frames dropped.
    public var showStatus = false
    /// Cache budget in bytes; nil: `FrameCache.defaultLimit`.
    public var cacheLimit: Int?
    /// Full-screen interactive mode (alternate screen, keys); false writes
    /// frames in place with no terminal set-up.
    public var interactive = true
    /// Where frames go (standard output).
    public var output: Int32 = 1
    /// Where an interactive player reads keys: a terminal's fd, put in raw
    /// mode while playing and left open. Nil (the default): standard input
    /// when it is a terminal, else the controlling terminal (`/dev/tty`).
    public var input: Int32?
    /// Keep a record of every frame shown (`PlayerStatistics.shownFrames`).
    public var recordFrames = false
    /// How frames are drawn: text cells or a graphics protocol. `auto` is
    /// resolved before the player is made (`TerminalProbe`).
    public var graphics: GraphicsProtocol = .text
    /// Pixels per cell; nil: from the terminal (`TIOCGWINSZ`), else
    /// `CellGeometry.assumed`.
    public var cell: CellGeometry?
    /// Enlarge animations smaller than the box to fill it.
    public var upscale = false
    /// Inside tmux with `allow-passthrough on`: graphics are wrapped for it.
    public var tmuxPassthrough = false
    /// Sixel colour registers and largest image, when the terminal said.
    public var sixelRegisters: Int?
    /// The largest sixel image in pixels; nil: not known.
    public var sixelMaxSize: PixelSize?
    /// Text cells: the block characters (half blocks by default).
    public var symbols: TextSymbols = .half
    /// Text cells in 256 colours: ordered dithering before the mapping.
    public var dither = false
    /// The row the shell's cursor was on when play started (DECXCPR): the
    /// cursor is kept there between frames, so a terminal that reflows its
    /// main screen on a resize by the cursor's row (xterm) keeps the
    /// shell's output. nil: not known.
    public var shellCursorRow: Int?
    /// Keys typed while the terminal was probed, handled first.
    public var pendingInput: [UInt8] = []
    /// Play only these frames (0-based, both ends in; a file, not a
    /// stream); nil: all of them.
    public var frames: ClosedRange<Int>?
    /// End the play after this long, whatever is left of it; nil: no limit.
    public var maxDuration: Duration?
    /// Draw into a box of the screen as it is, for previews (`--inline`,
    /// `--place`): no alternate screen, no keys; nil: full screen when
    /// interactive.
    public var inline: InlinePlacement?
    /// Draw the first frame played and return at once (`--frame N`).
    public var still = false
    /// One of several files (`anim play a.gif b.webp`): `n` and `p` end the
    /// play with `.next` and `.previous`.
    public var playlist = false
    /// The caller has entered the terminal (alternate screen, raw mode)
    /// and restores it: the play neither enters nor leaves it, and clears
    /// the screen when it starts and ends.
    public var sharedTerminal = false
    /// A line above the picture, centred on it (`--title`: the file name);
    /// nil: none.
    public var title: String?
    /// Fit and centre the picture into this part of the screen (a pane of
    /// a grid) instead of the whole window; nil: the window.
    public var region: CellRegion?
    /// kitty's image id for this play (several at once need several ids);
    /// nil: one made from the process id.
    public var kittyImageID: UInt32?

    /// The defaults: truecolor text cells fitted to the terminal, played
    /// interactively at normal speed.
    public init() {}
}

/// What a play did, for `--stats`.
public struct PlayerStatistics: Sendable {
    /// Frames drawn, counting those that changed nothing on screen.
    public var framesShown = 0
    /// Frames skipped because they were due before they could be shown.
    public var framesDropped = 0
    /// Bytes of frame output, status lines and update markers included (0 for
    /// a frame that changed nothing).
    public var bytesWritten = 0
    /// Milliseconds from when the player was made to the first frame's output.
    public var firstFrameMs = 0.0
    /// Milliseconds between each frame's output and the one before it.
    public var intervals: [Double] = []
    /// Frames decoded, over every cache the play used (a resize opens a new one).
    public var decodedFrames = 0
    /// Frames taken from the cache without decoding.
    public var cacheHits = 0
    /// The most bytes one frame cache held at once.
    public var peakCacheBytes = 0
    /// Each frame shown, when `PlayerOptions.recordFrames` is set.
    public var shownFrames: [ShownFrame] = []
    /// Why the play ended.
    public var outcome: Outcome = .finished

    /// How a play ended: the animation finished, the user quit, or the
    /// output was closed.
    public enum Outcome: Sendable, Equatable {
        case finished, quit, outputClosed
        /// `n` or `p` in a list of files: the next or the previous one.
        case next, previous
    }

    /// A frame on screen: which, when (nanoseconds after the player
    /// started) and where its bytes end in the output.
    public struct ShownFrame: Sendable, Equatable {
        /// The animation frame's index, 0-based.
        public var frame: Int
        /// Nanoseconds after the player started.
        public var time: Int64
        /// `bytesWritten` once its bytes were counted: where they end in the output.
        public var byteEnd: Int
    }

    /// The mean of `intervals` in milliseconds; 0 when there are none.
    public var meanIntervalMs: Double { intervals.isEmpty ? 0 : intervals.reduce(0, +) / Double(intervals.count) }
    /// The sample standard deviation of `intervals` in milliseconds; 0 with
    /// fewer than two.
    public var stdevIntervalMs: Double {
        guard intervals.count > 1 else { return 0 }
        let m = meanIntervalMs
        return (intervals.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(intervals.count - 1)).squareRoot()
    }
}

/// Where a preview goes: the box's top-left cell, and what is left when
/// the play ends.
public struct InlinePlacement: Sendable, Equatable {
    /// The box's top row, 1-based.
    public var row: Int
    /// The box's left column, 1-based.
    public var column: Int
    /// At the end, make the box blank again (kitty's images deleted).
    public var clear: Bool
    /// At the end, put the cursor back where it was (a previewer that draws
    /// into a pane it does not own); otherwise it goes to the line below
    /// the picture, as after any command's output.
    public var keepCursor: Bool
    /// Output is not a terminal (fzf reads the preview from a pipe): lines
    /// from the box's top-left, no absolute positions.
    public var lines: Bool

    /// A box at (`row`, `column`).
    public init(row: Int, column: Int, clear: Bool = false, keepCursor: Bool = false, lines: Bool = false) {
        self.row = row
        self.column = column
        self.clear = clear
        self.keepCursor = keepCursor
        self.lines = lines
    }
}

/// A box of cells on the screen: its top-left cell (1-based) and size.
public struct CellRegion: Sendable, Equatable {
    /// The top row, 1-based.
    public var row: Int
    /// The left column, 1-based.
    public var column: Int
    /// Its width in cells.
    public var columns: Int
    /// Its height in cells.
    public var rows: Int

    /// A box of `columns`×`rows` cells whose top-left cell is (`row`, `column`).
    public init(row: Int, column: Int, columns: Int, rows: Int) {
        self.row = row
        self.column = column
        self.columns = columns
        self.rows = rows
    }
}
