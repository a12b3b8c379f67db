/// What `ImageSource.transcode` did.
public struct TranscodeReport: Sendable {
    /// Frames written (identical neighbours may have been merged in the file).
    public var frames: Int
    /// What the output format could not hold and was changed, one sentence
    /// each (for example a play count above WebP's 65535).
    public var adjustments: [String]
    /// What went wrong in the source after the frames that were written
    /// (a truncated or damaged file), nil when it was read whole.
    public var sourceError: AnimError?
    /// The encoded bytes, when the output was memory.
    public var data: [UInt8]?
}

extension EncodingOptions {
    /// `plays` for an animation that plays `source` times in `format`,
    /// with a sentence when the format cannot hold it: WebP counts to
    /// 65535 plays, GIF to 65536 (its loop value is plays − 1).
    public static func plays(_ source: Plays, in format: OutputFormat) -> (plays: Int, adjustment: String?) {
        guard case .count(let n) = source else { return (0, nil) }
        let limit = maximumPlays(in: format)
        guard n > limit else { return (max(n, 1), nil) }
        return (limit, "plays \(n) times, more than \(format.rawValue.uppercased()) can say: written as \(limit)")
    }

    /// What `format`'s writer chooses from every frame before the first
    /// (GIF: the global table, unless one is given); `frame(i)` decodes
    /// frame i of `frameCount`, read only by a format that chooses so.
    package mutating func prepare(for format: OutputFormat, frameCount: Int, frame: (Int) throws -> RGBAImage) {
        Formats.writing(format).prepare?(&self, frameCount, frame)
    }
}

extension ImageSource {
    /// Writes every frame, with its duration, the source's play count and
    /// its metadata, to `path` (format from the extension unless given),
    /// through a temporary file renamed into place. `options.plays` is taken
    /// from the source unless `keepingPlays` is false; `options.metadata`
    /// too, unless `keepingMetadata` is false or it is set already. What
    /// the format cannot hold (a play count, EXIF in a GIF, text in a WebP)
    /// is named in the report's `adjustments`. Frames of a damaged source up
    /// to the damage are written and the damage is reported, not thrown; a
    /// source whose first frame does not decode throws. GIF to GIF keeps
    /// the source's images and delays as stored when it was opened with
    /// `DecodingOptions.imagesAsStored` (as `anim convert` and `optimize`
    /// do); otherwise frames as shown, with their played durations.
    /// `progress` is called after each frame with the frames written and
    /// the source's count.
    public func transcode(
        toPath path: String, format: OutputFormat? = nil, options: EncodingOptions = EncodingOptions(),
        keepingPlays: Bool = true, keepingMetadata: Bool = true, progress: (_ written: Int, _ of: Int) -> Void = { _, _ in }
    ) throws -> TranscodeReport {
        guard let format = format ?? OutputFormat(pathExtension: path) else {
            throw AnimError(file: path, EncodingProblem.noOutputFormat)
        }
        let (options, adjustments) = prepared(
            options, format: format, keepingPlays: keepingPlays, keepingMetadata: keepingMetadata)
        let destination = try ImageDestination(path: path, format: format, options: options)
        return try reader(keepingProfile: options.metadata.iccProfile != nil).write(
            to: destination, adjustments: adjustments, added: { progress($0, frameCount) })
    }

    /// As `transcode(toPath:)`, into memory: the report's `data` holds the file.
    public func transcode(
        to format: OutputFormat, options: EncodingOptions = EncodingOptions(),
        keepingPlays: Bool = true, keepingMetadata: Bool = true, progress: (_ written: Int, _ of: Int) -> Void = { _, _ in }
    ) throws -> TranscodeReport {
        let (options, adjustments) = prepared(
            options, format: format, keepingPlays: keepingPlays, keepingMetadata: keepingMetadata)
        let destination = try ImageDestination(format: format, options: options)
        var report = try reader(keepingProfile: options.metadata.iccProfile != nil).write(
            to: destination, adjustments: adjustments, added: { progress($0, frameCount) })
        report.data = destination.data
        return report
    }

    /// The source whose frames are written: this one, or, when the output
    /// keeps the ICC profile and this source converts from it, the same
    /// bytes read as stored, so the profile and the values still go
    /// together (converted values under the profile would be converted
    /// twice by whoever shows the file). Without the profile (`--strip`),
    /// the frames are written converted to sRGB, as they were shown.
    private func reader(keepingProfile: Bool) throws -> ImageSource {
        guard keepingProfile, colorConversion != nil else { return self }
        var stored = options
        stored.colorManagement = .none
        return try reopened(options: stored)
    }

    private func prepared(
        _ options: EncodingOptions, format: OutputFormat, keepingPlays: Bool, keepingMetadata: Bool
    ) -> (EncodingOptions, [String]) {
        var options = options
        var adjustments: [String] = []
        if keepingPlays {
            let (plays, adjustment) = EncodingOptions.plays(self.plays, in: format)
            options.plays = plays
            if let adjustment { adjustments.append(adjustment) }
        }
        if keepingMetadata && options.metadata.isEmpty { options.metadata = metadata }
        prepare(&options, for: format, keepingDelays: true)
        adjustments += options.metadata.lost(in: format).map { "not kept: " + $0 }
        return (options, adjustments)
    }

    /// What writing this source in `format` sets in `options`: what its
    /// codec chooses from every frame (`ImageCodec.prepare`, GIF's global
    /// table unless one is given; the frames decoded with a source of its
    /// own); from a source of that same format, what it keeps
    /// (`ImageCodec.Writing.sameFormat`: GIF's exact colours and, when the source
    /// was read with raw delays and `keepingDelays`, its delays as stored).
    package func prepare(_ options: inout EncodingOptions, for format: OutputFormat, keepingDelays: Bool) {
        let codec = Formats.writing(format)
        if options.prescan == nil, let prepare = codec.prepare, let scan = try? reopened() {
            prepare(&options, scan.frameCount, scan.frame(at:))
        }
        guard Formats.codec(of: self.format).output == format else { return }
        codec.sameFormat(&options, keepingDelays && self.options.durationPolicy == .raw)
    }

    private func write(
        to destination: ImageDestination, adjustments: [String], added: (Int) -> Void = { _ in }
    ) throws -> TranscodeReport {
        var damage = indexError
        let written = try destination.write(count: frameCount, added: added) { i in
            // Of a damaged source, what decoded before the damage.
            do { return (try frame(at: i), frames[i].duration) } catch let error as AnimError where i > 0 {
                damage = error
                return nil
            }
        }
        return TranscodeReport(frames: written, adjustments: adjustments, sourceError: damage, data: nil)
    }
}

extension ImageDestination {
    /// The one frame loop of every transcode (`ImageSource.transcode`; `anim
    /// convert`, `encode` and `--max-bytes` with their edits): adds frames
    /// 0, 1, … from `frame` until `count` or until it gives nil, calls
    /// `added` with the number added after each, then finishes. On any
    /// error the output is abandoned (nothing left behind) and the error
    /// thrown. Returns the number of frames added.
    @discardableResult
    public func write(
        count: Int, added: (Int) -> Void = { _ in }, frame: (Int) throws -> (image: RGBAImage, duration: Duration?)?
    ) throws -> Int {
        var n = 0
        do {
            while n < count, let (image, duration) = try frame(n) {
                try add(image, duration: duration)
                n += 1
                added(n)
            }
            try finish()
        } catch {
            cancel()
            throw error
        }
        return n
    }
}
