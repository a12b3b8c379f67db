/// An `ImageSource` seen through `FrameEdits`: its frames in the edited
/// order and timing, each cropped and resized, decoded on demand (a source
/// frame shown twice, as in a bounce, is decoded twice unless the source's
/// cache keeps it). `package`: what `Transcoder` writes, not a public way
/// to read.
package struct EditedFrames: Sendable {
    /// Frames after the edits.
    package var count: Int { entries.count }
    /// Width of the frames after the edits.
    package var width: Int { reshaper.width }
    /// Height of the frames after the edits.
    package var height: Int { reshaper.height }
    /// The edited play's length.
    package let length: Duration
    let source: ImageSource
    private let entries: [EditTimeline.Entry]
    let reshaper: FrameReshaper

    /// `source` seen through `edits`; throws `FrameSelection.Problem` or
    /// `FrameGeometry.Problem` when they do not fit it.
    package init(_ source: ImageSource, edits: FrameEdits) throws {
        let timeline = try edits.timeline(durations: source.frames.map(\.duration))
        reshaper = try FrameReshaper(edits.geometry, width: source.outputWidth, height: source.outputHeight)
        (self.source, entries, length) = (source, timeline.entries, timeline.total)
    }

    /// Edited frame `i` (its source frame, cropped and resized) and how
    /// long it shows (nil unless `timed`: written with the default).
    package func frame(at i: Int, timed: Bool = true) throws -> (image: RGBAImage, duration: Duration?) {
        (reshaper.apply(try source.frame(at: entries[i].frame)), timed ? entries[i].duration : nil)
    }
}
