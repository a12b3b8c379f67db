/// Decides which frame to show when, for a player.
///
/// Time is the animation's own clock, anchored to the real clock: the frame
/// due at any moment follows from the time since the play started (the sum
/// of durations), never from "now + delay", so playback does not drift; a
/// late player asks `tick()` and gets the frame due now, skipping the ones
/// it missed instead of playing them in a burst. Changing the speed,
/// pausing or stepping re-anchors the clocks at the current position.
///
/// Not `Sendable`: a scheduler belongs to the one thread that plays.
public final class FrameScheduler {
    /// What to show now.
    public struct Tick: Equatable, Sendable {
        /// The frame due now.
        public var frame: Int
        /// Clock time (nanoseconds) when the next frame is due; nil while
        /// paused or once the play has finished.
        public var nextDeadline: Int64?
        /// Frames that came and went since the previous tick, not shown.
        public var skipped: Int
        /// True once the last play has ended (the last frame stays).
        public var finished: Bool
    }

    /// Where the scheduler reads the time.
    package let clock: PlaybackClock
    private var timeline: FrameTimeline
    private var anchorReal: Int64
    private var anchorAnim: Int64 = 0
    private var lastIndex = -1
    /// True while paused: animation time stands still.
    public private(set) var isPaused = false
    /// How many times the animation plays (a file's `plays`, or an override).
    public var plays: Plays
    /// Frames skipped since the start.
    public private(set) var totalSkipped = 0
    /// True while the play has reached the end of the known frames of an
    /// open-ended scheduler and waits for more.
    public private(set) var isWaitingForFrames = false

    /// More frames are still to come (a stream being read): time stops at
    /// the end of the known frames, instead of looping or finishing, until
    /// `append(durations:)` adds frames; setting it false lets the play end
    /// or loop.
    public var isOpenEnded = false {
        didSet {
            guard !isOpenEnded, isWaitingForFrames else { return }
            isWaitingForFrames = false
            anchor(at: timeline.length)
        }
    }

    /// A scheduler for frames of `durations` (at least 1 ms each), starting
    /// now. Deadlines are nanoseconds on `clock`: a `ManualClock`'s own
    /// reading, else since the scheduler was made.
    public convenience init(
        durations: [Duration], plays: Plays, mode: PlaybackMode = .forward,
        speed: Double = 1, clock: any Clock<Duration> = SuspendingClock()
    ) {
        self.init(durations: durations, plays: plays, mode: mode, speed: speed, clock: PlaybackClock(clock))
    }

    /// A scheduler reading `clock` (shared with a player that sleeps on it).
    package init(durations: [Duration], plays: Plays, mode: PlaybackMode = .forward, speed: Double, clock: PlaybackClock) {
        self.clock = clock
        self.timeline = FrameTimeline(durations: durations.map { max($0.nanosecondsValue, 1_000_000) }, mode: mode)
        self.plays = plays
        self.mode = mode
        self.speed = max(speed, 1e-6)
        anchorReal = clock.nanoseconds()
    }

    /// Playback speed: 2 plays twice as fast.
    public var speed: Double {
        willSet { anchor(at: animationTime) }
    }

    /// The order frames play in. Changing it keeps the frame on screen.
    public var mode: PlaybackMode {
        didSet {
            guard mode != oldValue else { return }
            let frame = currentFrame
            let play = loop(of: currentIndex)
            timeline = FrameTimeline(durations: timeline.durations, mode: mode)
            jump(toIndex: play * timeline.count + timeline.position(of: frame))
        }
    }

    /// Animation time now, in nanoseconds since the start of the first play.
    public var animationTime: Int64 {
        isPaused || isWaitingForFrames ? anchorAnim : anchorAnim + Int64(Double(clock.nanoseconds() - anchorReal) * speed)
    }

    /// Frames that arrived on a stream, after the known ones. A play
    /// waiting for them goes on from where it stopped, so the first new
    /// frame is due now.
    public func append(durations more: [Duration]) {
        guard !more.isEmpty else { return }
        let oldLength = timeline.length
        timeline = FrameTimeline(durations: timeline.durations + more.map { max($0.nanosecondsValue, 1_000_000) }, mode: mode)
        if isWaitingForFrames {
            isWaitingForFrames = false
            anchor(at: oldLength)
        }
    }

    /// The frame due now, and when the next one is; counts skipped frames.
    public func tick() -> Tick {
        if isOpenEnded, !isPaused, !isWaitingForFrames, animationTime >= timeline.length {
            // The end of what has arrived: hold the last frame.
            isWaitingForFrames = true
            anchor(at: timeline.length - 1)
        }
        let index = currentIndex
        let skipped = max(0, index - lastIndex - 1)
        if index > lastIndex { totalSkipped += skipped }
        lastIndex = index
        let finished = isFinished
        let deadline =
            finished || isPaused || isWaitingForFrames
            ? nil : anchorReal + Int64((Double(start(of: index + 1) - anchorAnim) / speed).rounded(.up))
        return Tick(frame: timeline.order[index % timeline.count], nextDeadline: deadline, skipped: skipped, finished: finished)
    }

    /// Stops animation time at the current position, if not already paused.
    public func pause() {
        guard !isPaused else { return }
        anchor(at: animationTime)
        isPaused = true
    }

    /// Lets animation time run on from where it was paused.
    public func resume() {
        guard isPaused else { return }
        anchorReal = clock.nanoseconds()
        isPaused = false
    }

    /// Resumes if paused, pauses otherwise.
    public func togglePause() { isPaused ? resume() : pause() }

    /// Pauses and moves `count` frames along the playing order (negative:
    /// back), not before the first frame.
    public func step(by count: Int) {
        pause()
        jump(toIndex: max(0, currentIndex + count))
    }

    /// Shows `frame` next, in the current play, keeping paused or playing.
    public func seek(toFrame frame: Int) {
        jump(toIndex: loop(of: currentIndex) * timeline.count + timeline.position(of: frame))
    }

    /// Restarts the clock at the start of the frame due now, so that it is
    /// shown for its whole duration from now on (a player calls this once
    /// its first frame is on screen, after decoding it).
    public func startCurrentFrameNow() {
        anchor(at: start(of: currentIndex))
    }

    /// Back to the start of the first play.
    public func restart() {
        jump(toIndex: 0)
        lastIndex = -1
    }

    /// Frames in one play (before any order is applied).
    public var frameCount: Int { timeline.durations.count }

    /// The frame due now.
    public var currentFrame: Int { timeline.order[currentIndex % timeline.count] }

    /// Position in the endless sequence of frames: play × frames per play +
    /// position.
    private var currentIndex: Int {
        let t = max(animationTime, 0)
        if case .count(let n) = plays, t >= Int64(n) * timeline.length {
            return n * timeline.count - 1
        }
        let loop = t / timeline.length
        return Int(loop) * timeline.count + timeline.position(at: t % timeline.length)
    }

    private func loop(of index: Int) -> Int { index / timeline.count }

    private var isFinished: Bool {
        guard case .count(let n) = plays else { return false }
        return animationTime >= Int64(n) * timeline.length
    }

    /// Animation time `time` is now.
    private func anchor(at time: Int64) {
        anchorAnim = time
        anchorReal = clock.nanoseconds()
    }

    /// When position `index` of the endless sequence starts, in animation time.
    private func start(of index: Int) -> Int64 {
        Int64(index / timeline.count) * timeline.length + timeline.starts[index % timeline.count]
    }

    private func jump(toIndex index: Int) {
        anchor(at: start(of: index))
        isWaitingForFrames = false
        lastIndex = index - 1  // the next tick shows it, skipping nothing
    }
}
