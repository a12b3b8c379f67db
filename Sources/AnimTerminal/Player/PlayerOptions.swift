import AnimKit

/// What the user asked of a play. What the terminal was found to have is
/// `TerminalCapabilities`, passed beside it; each backend's own state (kitty's
/// image ids) is the player's.
public struct PlayerOptions: Sendable {
    /// How the play is shown: full screen, a preview box, a still frame, plain output.
    public var presentation: Presentation = .fullScreen
    /// How frames are drawn: protocol, colours, symbols, fit.
    public var look = FrameLook()
    /// Which frames play, how often, how fast and for how long.
    public var timing = PlayTiming()
    /// Cell box to fit into; nil: the terminal's size (80×24 when not a terminal).
    public var columns: Int?
    /// Rows of the cell box, including any kept for the status line; nil:
    /// the terminal's (24 when not a terminal).
    public var rows: Int?
    /// Pixels per cell; nil: from the terminal (`TIOCGWINSZ`), else
    /// `CellGeometry.assumed`.
    public var cell: CellGeometry?
    /// In full screen, a status line on the last row: name, frame, speed
    /// and frames dropped.
    public var showStatus = false
    /// Cache budget in bytes; nil: `FrameCache.defaultLimit`.
    public var cacheLimit: Int?
    /// Where frames go (standard output).
    public var output: Int32 = 1
    /// Where a full-screen player reads keys: a terminal's fd, put in raw
    /// mode while playing and left open. Nil (the default): standard input
    /// when it is a terminal, else the controlling terminal (`/dev/tty`).
    public var input: Int32?
    /// Keep a record of every frame shown (`PlayerStatistics.shownFrames`).
    public var recordFrames = false
    /// A line above the picture, centred on it (`--title`: the file name);
    /// nil: none.
    public var title: String?

    /// The defaults: truecolor text cells fitted to the terminal, played
    /// full screen at normal speed.
    public init() {}

    /// Full screen or one of a list: the alternate screen, keys.
    var interactive: Bool { presentation == .fullScreen || presentation == .list }
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
