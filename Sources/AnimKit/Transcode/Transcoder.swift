/// The one transcoder: an animation's frames through `FrameEdits`, written
/// in a format with the source's play count, durations and metadata (what
/// the format can hold), to memory, a file or a caller's destination
/// (`write(to:)`), or at the first setting of the size ladder that fits a
/// number of bytes (`write(fitting:)`). `adjustments` and the frames' size
/// are known before any frame is decoded. A damaged source's frames up to
/// the damage are written and the damage reported
/// (`TranscodeReport.sourceError`); if its first frame does not decode,
/// writing throws. GIF to GIF keeps the images and delays as stored of a
/// source opened with `DecodingOptions.imagesAsStored`, unless an edit
/// changes the time.
///
/// Not `Sendable`: it reads its source's frames in the order asked.
public final class Transcoder {
    /// The format written.
    public let format: OutputFormat
    /// The options given, with the source's play count and metadata; what
    /// the format chooses from the frames (GIF's global table) is added
    /// when writing.
    public let options: EncodingOptions
    /// What the format cannot hold, and what is written instead.
    public let adjustments: [TranscodeAdjustment]
    /// Frames written (before identical neighbours are merged).
    public let frameCount: Int
    /// Width of the frames written.
    public let width: Int
    /// Height of the frames written.
    public let height: Int

    /// The source read and its edits (nil: frames given by a function).
    let source: (read: ImageSource, edits: FrameEdits, edited: EditedFrames, reshapes: Bool)?
    /// Whether each frame keeps its duration (else `options.defaultDuration`).
    let keepsDurations: Bool
    /// How an output is read back to compare it with the frames written.
    let reading: DecodingOptions
    private let frames: FrameReader
    let damage: Locked<AnimError?>
    /// When each frame written last starts.
    private var starts: [Duration] = []

    /// `source`'s frames through `edits`, for `format`, with the source's
    /// play count (as far as the format counts) unless `keepingPlays` is
    /// false, its metadata unless `keepingMetadata` is false or
    /// `options.metadata` is set, and each frame's duration unless
    /// `keepingDurations` is false (then `options.defaultDuration`). Throws
    /// `FrameSelection.Problem` or `FrameGeometry.Problem` when the edits
    /// do not fit the source. An output that keeps an ICC profile the
    /// source converts from gets the frames as stored (converted values
    /// under the profile would be converted twice by whoever shows them);
    /// without it, the frames converted to sRGB, as they were shown.
    public init(
        _ source: ImageSource, format: OutputFormat, options: EncodingOptions = EncodingOptions(),
        edits: FrameEdits = FrameEdits(), keepingPlays: Bool = true, keepingMetadata: Bool = true,
        keepingDurations: Bool = true
    ) throws {
        var options = options
        var adjustments: [TranscodeAdjustment] = []
        if keepingPlays {
            let (plays, adjustment) = EncodingOptions.plays(source.plays, in: format)
            options.plays = plays
            if let adjustment { adjustments.append(adjustment) }
        }
        if keepingMetadata && options.metadata.isEmpty { options.metadata = source.metadata }
        adjustments += options.metadata.lost(in: format).map(TranscodeAdjustment.notKept)
        let read = try source.reader(keepingProfile: options.metadata.iccProfile != nil)
        let edited = try EditedFrames(read, edits: edits)
        let reshapes = !edits.geometry.isIdentity(width: read.outputWidth, height: read.outputHeight)
        let damage = Locked(read.indexError)
        (frameCount, width, height) = (edited.count, edited.width, edited.height)
        frames = FrameReader { [edited] i in
            // Of a damaged source, what decoded before the damage.
            do {
                return try edited.frame(at: i, timed: keepingDurations)
            } catch let e as AnimError where i > 0 {
                damage.withLock { $0 = e }
                return nil
            }
        }
        (self.format, self.options, self.adjustments, keepsDurations) = (format, options, adjustments, keepingDurations)
        (self.source, self.damage, reading) = ((read, edits, edited, reshapes), damage, read.options)
    }

    /// `count` frames of `width`×`height` from `frame` (nil durations:
    /// `options.defaultDuration`), written as they are with `options`
    /// (`anim encode`'s files); `reading` reads the output back.
    package init(
        format: OutputFormat, options: EncodingOptions, count: Int, width: Int, height: Int, reading: DecodingOptions,
        frame: @escaping @Sendable (Int) throws -> (image: RGBAImage, duration: Duration?)
    ) {
        (self.format, self.options, adjustments, keepsDurations, self.reading) = (format, options, [], true, reading)
        (frameCount, self.width, self.height, source) = (count, width, height, nil)
        frames = FrameReader(read: frame)
        damage = Locked(nil)
    }

    /// Writes every frame to `output`; `progress` hears of each frame
    /// written. `options.frameCount` is as given (an APNG of one frame
    /// announced is a plain PNG). On any error the output is abandoned
    /// (nothing left behind) and the error thrown.
    public func write(to output: TranscodeOutput, progress: (TranscodeProgress) -> Void = { _ in }) throws -> TranscodeReport {
        var options = self.options
        if let source, !source.reshapes {
            // The global table from the source's frames; GIF to GIF exact
            // colours and the delays as stored, unless edits or one
            // duration for all set new ones.
            source.read.prepare(&options, for: format, keepingDelays: keepsDurations && !source.edits.changesTime)
        }
        let destination = try output.open(format, options)
        let (n, starts) = try frames.write(
            count: frameCount, to: destination, ahead: !options.oneThread,
            added: { progress(.frames(written: $0, of: frameCount)) })
        self.starts = starts
        return TranscodeReport(
            frames: n, adjustments: adjustments, sourceError: damage.withLock { $0 }, data: destination.data)
    }

    /// How closely the file at `path` (as written by `write(to:)`) shows
    /// the frames written (a lossy output's PSNR).
    package func comparison(withFile path: String) throws -> ShownComparison {
        let written = try ImageSource(path: path, options: reading)
        return try ShownComparison.compare(
            count: starts.count, starts: starts, reference: { try frames.read($0)?.image ?? RGBAImage(width: 0, height: 0) },
            shown: written)
    }
}
