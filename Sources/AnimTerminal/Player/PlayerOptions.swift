/// What the user asked of a play (what the terminal has is
/// `TerminalCapabilities`, passed beside it).
public struct PlayerOptions: Sendable {
    /// How the play is shown: full screen, a preview box, a still frame,
    /// plain output.
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
    /// Where a full-screen player reads keys: a terminal's fd, raw while
    /// playing, left open; nil: standard input if a terminal, else `/dev/tty`.
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
