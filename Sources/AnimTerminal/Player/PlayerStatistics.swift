/// What a play did, for `--stats`.
public struct PlayerStatistics: Sendable {
    /// Frames drawn, counting those that changed nothing on screen.
    public var framesShown = 0
    /// Frames skipped because they were due before they could be shown.
    public var framesDropped = 0
    /// Bytes of output, status lines and update markers included.
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

    /// How a play ended.
    public enum Outcome: Sendable, Equatable {
        /// The plays ran out (or the time, or the frame for a still).
        case finished
        /// The user quit (q, Esc, Ctrl-C).
        case quit
        /// The output went away (a closed pipe, a hung-up terminal).
        case outputClosed
        /// `n` or `p` in a list of files: the next or the previous one.
        case next, previous
    }

    /// A frame on screen: which, when, and where its bytes end in the output.
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
    /// The sample standard deviation of `intervals` in milliseconds (0: fewer than two).
    public var stdevIntervalMs: Double {
        guard intervals.count > 1 else { return 0 }
        let m = meanIntervalMs
        return (intervals.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(intervals.count - 1)).squareRoot()
    }
}
