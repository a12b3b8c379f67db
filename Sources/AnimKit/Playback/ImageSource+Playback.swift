extension ImageSource {
    /// The frames as they fall due, for a player written with Swift
    /// concurrency: each element arrives when its frame should be shown
    /// (the sequence sleeps in between, on `clock`), timed by a
    /// `FrameScheduler` from the moment iteration starts. A consumer that
    /// falls behind gets the frame due now, with `skipped` saying how many
    /// it missed, never a burst. Frames are decoded ahead of the playhead
    /// on another thread, through a `CachedFrameSource` of `cacheBytes`.
    /// The sequence ends when the last frame of the last play (`plays`, by
    /// default the file's) has had its time, after the one frame of a still
    /// image, or when the task that iterates is cancelled.
    ///
    /// ```swift
    /// for try await frame in try source.playback(plays: .count(1)) {
    ///     print(frame.index, frame.skipped, frame.image.width)
    /// }
    /// ```
    public func playback(
        plays: Plays? = nil, speed: Double = 1, mode: PlaybackMode = .forward,
        clock: any Clock<Duration> = SuspendingClock(), cacheBytes: Int = FrameCache.defaultLimit
    ) throws -> PlaybackFrames {
        // Its own decoding state: reads of this source leave the play's
        // canvas alone.
        let frames = CachedFrameSource(source: try sharingIndex(options: options), limitBytes: cacheBytes)
        return PlaybackFrames(
            frames: frames, info: self.frames, plays: plays ?? self.plays, speed: speed, mode: mode,
            clock: PlaybackClock(clock))
    }
}

/// One frame of `ImageSource.playback`, delivered when it is due.
public struct PlaybackFrame: Sendable {
    /// The frame's position in the animation.
    public let index: Int
    /// Its timing, rectangle and disposal.
    public let info: FrameInfo
    /// The composited frame (the size the source delivers).
    public let image: RGBAImage
    /// Frames that came and went since the previous element, not delivered.
    public let skipped: Int
    /// The clock's time (nanoseconds: a `ManualClock`'s reading, else since
    /// the play started) when the next frame is due (after the last frame:
    /// when the play and the sequence end); nil when a consumer so late
    /// that the play was over gets the last frame.
    public let nextDeadline: Int64?
}

/// The frames of an `ImageSource` in real time (`ImageSource.playback`).
public struct PlaybackFrames: AsyncSequence, Sendable {
    /// Each element is one frame, when it is due.
    public typealias Element = PlaybackFrame
    let frames: CachedFrameSource
    let info: [FrameInfo]
    let plays: Plays
    let speed: Double
    let mode: PlaybackMode
    let clock: PlaybackClock

    /// Waits for each frame's time, then delivers it. Not `Sendable`: an
    /// iterator belongs to the task that iterates.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: PlaybackFrames
        var scheduler: FrameScheduler?
        var last: Int?

        /// The next frame when it is due, or nil once the play is over or
        /// the task is cancelled.
        public mutating func next() async throws -> PlaybackFrame? {
            let s = sequence
            guard !s.info.isEmpty else { return nil }
            let scheduler =
                self.scheduler
                ?? FrameScheduler(
                    durations: s.info.map(\.duration), plays: s.plays, mode: s.mode, speed: s.speed, clock: s.clock)
            self.scheduler = scheduler
            if last != nil && s.info.count == 1 { return nil }
            while !Task.isCancelled {
                let tick = scheduler.tick()
                if tick.frame != last {
                    last = tick.frame
                    let image: RGBAImage
                    do {
                        // From the cache, or decoded on a Dispatch queue so
                        // the task's thread is not held (`OffThread`:
                        // cancellable).
                        image = try await OffThread.run {
                            let direction: PlaybackDirection = s.mode == .reverse ? .backward : .forward
                            return try s.frames.frame(at: tick.frame, direction: direction, wraps: tick.nextDeadline != nil)
                        }
                    } catch is CancellationError { return nil }
                    return PlaybackFrame(
                        index: tick.frame, info: s.info[tick.frame], image: image, skipped: tick.skipped,
                        nextDeadline: tick.finished ? nil : tick.nextDeadline)
                }
                guard let deadline = tick.nextDeadline, !tick.finished else { return nil }
                do { try await s.clock.suspend(until: deadline) } catch is CancellationError { return nil }
            }
            return nil
        }
    }

    /// An iterator whose play starts at its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
}
