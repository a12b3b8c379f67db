/// The edits `anim convert` and `anim encode` make, as a value, applied
/// in one stated order:
///
/// 1. `frames`: the frames kept, in the order listed (source numbers);
/// 2. `speed`: durations divided by it;
/// 3. `fps`: resampled to that rate (`EditTimeline.resampled`);
/// 4. `reverse`, then 5. `bounce`;
///
/// and on the pixels of every frame: `geometry` (crop, then size). The
/// loop count is the encoder's (`EncodingOptions.plays`).
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
        self.frames = frames
        self.speed = speed
        self.fps = fps
        self.reverse = reverse
        self.bounce = bounce
        self.geometry = geometry
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

/// An `ImageSource` seen through `FrameEdits`: its frames in the edited
/// order and timing, each cropped and resized. Frames decode on demand
/// (a source frame shown twice, as in a bounce, is decoded twice unless
/// the source's cache keeps it).
///
/// Not `Sendable`: it reads its source's frames in the order asked.
public final class EditedFrames {
    /// The source the frames come from.
    public let source: ImageSource
    /// The edited play: source frames and durations.
    public let timeline: EditTimeline
    private let reshaper: FrameReshaper

    /// `source` seen through `edits`; throws `FrameSelection.Problem` or `FrameGeometry.Problem` when they do not fit it.
    public init(_ source: ImageSource, edits: FrameEdits) throws {
        self.source = source
        timeline = try edits.timeline(durations: source.frames.map(\.duration))
        reshaper = try FrameReshaper(edits.geometry, width: source.outputWidth, height: source.outputHeight)
    }

    /// Frames after the edits.
    public var count: Int { timeline.entries.count }
    /// Width of the edited frames.
    public var width: Int { reshaper.width }
    /// Height of the edited frames.
    public var height: Int { reshaper.height }

    /// Edited frame `i`: its source frame, cropped and resized.
    public func frame(at i: Int) throws -> RGBAImage {
        reshaper.apply(try source.frame(at: timeline.entries[i].frame))
    }

    /// How long edited frame `i` shows.
    public func duration(at i: Int) -> Duration { timeline.entries[i].duration }
}
