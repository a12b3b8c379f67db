/// An `ImageSource` seen through `FrameEdits`: its frames in the edited
/// order and timing, each cropped and resized. Frames decode on demand
/// (a source frame shown twice, as in a bounce, is decoded twice unless
/// the source's cache keeps it). `package`: what `Transcoder` writes,
/// not a public way to read.
///
/// Not `Sendable`: it reads its source's frames in the order asked.
package final class EditedFrames {
    /// The source the frames come from.
    package let source: ImageSource
    /// The edited play: source frames and durations.
    package let timeline: EditTimeline
    private let reshaper: FrameReshaper

    /// `source` seen through `edits`; throws `FrameSelection.Problem` or `FrameGeometry.Problem` when they do not fit it.
    package init(_ source: ImageSource, edits: FrameEdits) throws {
        self.source = source
        timeline = try edits.timeline(durations: source.frames.map(\.duration))
        reshaper = try FrameReshaper(edits.geometry, width: source.outputWidth, height: source.outputHeight)
    }

    /// Frames after the edits.
    package var count: Int { timeline.entries.count }
    /// Width of the edited frames.
    package var width: Int { reshaper.width }
    /// Height of the edited frames.
    package var height: Int { reshaper.height }

    /// Edited frame `i`: its source frame, cropped and resized.
    package func frame(at i: Int) throws -> RGBAImage {
        reshaper.apply(try source.frame(at: timeline.entries[i].frame))
    }

    /// How long edited frame `i` shows.
    package func duration(at i: Int) -> Duration { timeline.entries[i].duration }
}
