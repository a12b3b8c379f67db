/// Reads an animated (or still) GIF, PNG/APNG or WebP.
///
/// Opening parses the container into the frame index (`index`). No pixel
/// is decoded until a frame is asked for; then it is composited from the
/// nearest keyframe or the canvas already composited, whichever is closer,
/// so reading frames in order decodes each once. The format comes from the
/// bytes, never the file name; limits (`DecodingLimits`) are checked before
/// anything is allocated.
///
/// A file truncated or corrupt after some complete frames still opens:
/// `frames` holds what can be shown, `indexError` what went wrong after
/// them. A frame the file ends inside (a GIF image cut short) is listed
/// with `isComplete` false, drawn as far as its data goes, as browsers show
/// it (or left out with `DecodingOptions.allowsIncompleteFrames` false).
///
/// It may be used from several threads. `@unchecked Sendable`: the index,
/// the bytes and the options are immutable; the decoding cursor is reached
/// only through its lock, whose closures lend its pixels for the call and
/// never the cursor itself.
public final class ImageSource: @unchecked Sendable {
    /// The name used in messages: the path, or a label for in-memory data.
    public let name: String
    /// What opening the file learnt: canvas, frames, loop count, metadata.
    public let index: FrameIndex
    /// The width of the frames delivered: the canvas's, or another with
    /// `DecodingOptions.fitIn` or `resizeTo`. Frame rectangles stay in canvas pixels.
    public let outputWidth: Int
    /// The height of the frames delivered.
    public let outputHeight: Int
    /// The options the source was opened with.
    public let options: DecodingOptions
    /// The most memory, in bytes, this source's decoding holds, estimated
    /// before anything is allocated (`WorkingSet`), with as many steps
    /// decoded ahead of direct reads as fit in `DecodingLimits.maxMemory`.
    /// Frames handed out (`frame(at:)`'s copies) and a frame cache come on top.
    public let memoryFootprint: Int
    /// The same without steps decoded ahead (a `CachedFrameSource`'s reads):
    /// over `DecodingLimits.maxMemory`, decoding a frame throws an
    /// ``AnimError`` (``LimitExceeded``, ``Limit/memory``) before allocating.
    public let minimumMemory: Int

    let store: ByteStore
    /// The decoding state, reached only through its lock.
    let cursor: Locked<FrameCursor>
    /// Decoding ahead for a store's reads.
    let ahead = DecodeAhead()
    var downsamples: Bool { (outputWidth, outputHeight) != (width, height) }

    /// Opens the file at `path`.
    public convenience init(path: String, options: DecodingOptions = DecodingOptions()) throws {
        try self.init(store: ByteStore.load(path: path, map: options.mapFiles), name: path, options: options)
    }

    /// Opens `path` indexed only as far as frame `frame` needs: prefixes of
    /// 1 MiB, then four times larger each time, are indexed as a stream's are
    /// until the frame is complete in one; else (or when the file is read
    /// rather than mapped) the whole file. The source has that prefix's
    /// frames: `frameCount` and the frames after it are not the file's.
    public static func opening(path: String, throughFrame frame: Int, options: DecodingOptions = DecodingOptions())
        throws -> ImageSource
    {
        let store = try ByteStore.load(path: path, map: options.mapFiles)
        for size in sequence(first: 1 << 20, next: { $0 * 4 }).prefix(while: { store.isMapped && $0 < store.count }) {
            if let s = try? ImageSource(store: store.prefix(size), name: path, options: options, partial: true),
                s.frameCount > frame
            {
                try options.limits.checkProportion(width: s.width, height: s.height, bytes: store.count, file: path)
                return s
            }
        }
        return try ImageSource(store: store, name: path, options: options)
    }

    /// A new source over the same bytes, indexed again, with its own decoding state.
    public func reopened(options: DecodingOptions? = nil) throws -> ImageSource {
        try ImageSource(store: store, name: name, options: options ?? self.options)
    }

    /// Opens in-memory bytes; `name` labels messages.
    public convenience init(
        data: some Collection<UInt8>, name: String = "<memory>",
        options: DecodingOptions = DecodingOptions()
    ) throws {
        try self.init(store: ByteStore(data), name: name, options: options)
    }

    /// `partial`: the bytes are a prefix of what will come; only settled
    /// frames are indexed and running out of data is not an error.
    convenience init(store: ByteStore, name: String, options: DecodingOptions, partial: Bool = false) throws {
        guard let codec = Formats.reading(store.bytes) else {
            if store.count == 0 { throw AnimError(file: name, offset: 0, CommonProblem.emptyFile) }
            if Formats.couldBegin(store.bytes) {
                throw AnimError(file: name, offset: store.count, CommonProblem.endsInsideSignature)
            }
            throw AnimError(file: name, CommonProblem.unknownFormat)
        }
        // Truncated under a mapping while indexed: the index read zeros
        // (an index that succeeds is checked as the source is made).
        var container: ContainerIndex
        store.indexPasses.withLock { $0 += 1 }
        do {
            container = try codec.index(store, name, options)
        } catch {
            throw store.changed ? AnimError(file: name, CommonProblem.fileChanged) : error
        }
        if container.color == nil, codec.profileIsColor {
            container.color = container.summary.metadata.iccProfile.map { .icc($0) }
        }
        let conversion: (source: ColorConversion?, transform: ColorTransform?) =
            options.colorManagement == .sRGB ? container.convertToSRGB() : (nil, nil)
        store.release(0..<store.count)  // indexing touched pages it no longer needs
        store.adviseSequentialReads()
        let index = FrameIndex(
            container, policy: options.durationPolicy, partial: partial, incomplete: options.allowsIncompleteFrames)
        // A bomb: a canvas no file of these bytes can fill (not for a stream still arriving).
        if !partial {
            try options.limits.checkProportion(width: index.width, height: index.height, bytes: store.count, file: name)
        }
        try self.init(
            store: store, name: name, options: options, index: index, decoder: container.decoder,
            colorTransform: conversion.transform, colorConversion: conversion.source)
    }

    /// A new source over the same bytes and index (not parsed again) with its
    /// own decoding state; `options` may change what is delivered, not the index.
    public func sharingIndex(options: DecodingOptions) throws -> ImageSource {
        let (decoder, transform) = cursor.withLock { ($0.decoder, $0.delivery.colorTransform) }
        return try ImageSource(
            store: store, name: name, options: options, index: index, decoder: decoder, colorTransform: transform,
            colorConversion: colorConversion)
    }

    private init(
        store: ByteStore, name: String, options: DecodingOptions, index: FrameIndex, decoder: StepDecoder,
        colorTransform: ColorTransform?, colorConversion: ColorConversion?
    ) throws {
        if let size = options.resizeTo, size.width > 0, size.height > 0 {
            let pixels = size.width.multipliedReportingOverflow(by: size.height).partialValue
            let most = options.limits.maxCanvasPixels
            if pixels > most || size.width > 1 << 20 || size.height > 1 << 20 {
                throw AnimError(file: name, LimitExceeded(.canvasPixels, value: pixels, maximum: most))
            }
        }
        // Truncated while it was indexed (a mapped file read zeros past its new end).
        if store.changed { throw AnimError(file: name, CommonProblem.fileChanged) }
        (self.store, self.name, self.options, self.index, self.colorConversion) = (store, name, options, index, colorConversion)
        let out =
            options.resizeTo.map { (width: max($0.width, 1), height: max($0.height, 1)) } ?? options.fitIn.map {
                Downsampler.fit(
                    width: index.width, height: index.height, maxWidth: max($0.width, 1), maxHeight: max($0.height, 1))
            } ?? (width: index.width, height: index.height)
        (outputWidth, outputHeight) = out
        let scaled = FrameCursor.scaledStill(index: index, decoder: decoder, width: out.width, height: out.height)
        let working = WorkingSet(
            index: index, decoder: decoder, storeBytes: store.isMapped ? 0 : store.count, outputWidth: out.width,
            outputHeight: out.height, converts: colorTransform != nil, scaledStill: scaled?.scaledDecodingBytes(step: 0))
        let budget = options.limits.maxMemory
        // One step: nothing to decode ahead.
        let depth = index.steps.count > 1 ? working.decodeAhead(options.decodeAhead, within: budget) : 0
        memoryFootprint = working.bytes(decodeAhead: depth)
        minimumMemory = working.base
        let delivery = FrameDelivery(
            canvasWidth: index.width, canvasHeight: index.height, width: out.width, height: out.height,
            colorTransform: colorTransform)
        let transform = delivery.downsampler == nil ? colorTransform : nil  // a downsampled frame is converted once downsampled
        let jobs = depth > 0 ? StepPrefetcher(decoder: decoder, steps: index.steps, depth: depth, transform: transform) : nil
        cursor = Locked(
            FrameCursor(
                file: name, index: index, decoder: decoder, store: store, delivery: delivery, prefetcher: jobs,
                allowance: CanvasAllowance(working: working.base, composited: working.composited, budget: budget, file: name)))
    }

    /// The format found in the bytes (`png` for a PNG without `acTL`).
    public var format: ImageFormat { index.format }
    /// Canvas width in pixels.
    public var width: Int { index.width }
    /// Canvas height in pixels.
    public var height: Int { index.height }
    /// Every displayed frame, in order.
    public var frames: [FrameInfo] { index.frames }
    /// The loop value stored in the file (see `FrameIndex.loopCount`).
    public var loopCount: Int? { index.loopCount }
    /// How many times the animation plays (see `FrameIndex.plays`).
    public var plays: Plays { index.plays }
    /// What went wrong after the last complete frame, if anything.
    public var indexError: AnimError? { index.error }
    /// The colour profile, EXIF, XMP and text the file carries.
    public var metadata: ImageMetadata { index.metadata }
    /// Problems that did not stop the file from showing as browsers show it
    /// (see `FrameIndex.warnings`); not errors: `indexError` stays nil for them.
    public var warnings: [any AnimProblem] { index.warnings }
    /// What the frames were converted to sRGB from (an ICC profile and its
    /// description, or PNG's gAMA/cHRM); nil when delivered as stored (no
    /// colour information, sRGB already, or `DecodingOptions.colorManagement` `.none`).
    public let colorConversion: ColorConversion?
    /// The number of displayed frames.
    public var frameCount: Int { index.frames.count }

    /// Steps (GIF images, APNG or WebP frames) composited, of those decoded
    /// ahead on another thread, and converted to sRGB there (for tests and statistics).
    var stepCounts: (decoded: Int, decodedAhead: Int, convertedAhead: Int) { cursor.withLock { $0.counts } }

    /// How many times these bytes were indexed (for tests: `sharingIndex` adds none).
    package var indexPasses: Int { store.indexPasses.value }
}
