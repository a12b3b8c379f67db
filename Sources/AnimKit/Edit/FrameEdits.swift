/// The edits `anim convert` and `anim encode` make, as a value, applied in
/// one stated order:
///
/// 1. `frames`: the frames kept, in the order listed (source numbers);
/// 2. `speed`: durations divided by it;
/// 3. `fps`: resampled to that rate (`EditTimeline.resampled`);
/// 4. `reverse`, then 5. `bounce`;
///
/// and on the pixels of every frame: `geometry` (crop, then size). The loop
/// count is the encoder's (`EncodingOptions.plays`).
public struct FrameEdits: Equatable, Sendable {
    /// The frames kept, in order (nil: all).
    public var frames: FrameSelection?
    /// Durations divided by this (nil: as they are).
    public var speed: Double?
    /// Resampled to this many frames a second (nil: not).
    public var fps: Double?
    /// Played backwards.
    public var reverse = false
    /// Played forwards, then backwards.
    public var bounce = false
    /// Crop and size of every frame.
    public var geometry = FrameGeometry()

    /// The edits given; by default none.
    public init(
        frames: FrameSelection? = nil, speed: Double? = nil, fps: Double? = nil, reverse: Bool = false,
        bounce: Bool = false, geometry: FrameGeometry = FrameGeometry()
    ) {
        (self.frames, self.speed, self.fps) = (frames, speed, fps)
        (self.reverse, self.bounce, self.geometry) = (reverse, bounce, geometry)
    }

    /// Whether the edits change anything about the time of a play.
    public var changesTime: Bool { frames != nil || speed != nil || fps != nil || reverse || bounce }

    /// The play after the time edits, from the source's durations.
    public func timeline(durations: [Duration]) throws(FrameSelection.Problem) -> EditTimeline {
        var t = EditTimeline(durations: durations)
        if let frames { t = t.selecting(try frames.frames(of: durations.count)) }
        if let speed { t = t.speeded(by: speed) }
        if let fps { t = t.resampled(fps: fps) }
        if reverse { t = t.reversed() }
        if bounce { t = t.bounced() }
        return t
    }
}
