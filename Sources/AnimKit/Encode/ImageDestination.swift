/// Writes an animation frame by frame: GIF, APNG or WebP.
///
/// ```swift
/// let out = try ImageDestination(path: "out.png", options: options)   //
/// format from the extension for frame in frames { try out.add(frame,
/// duration: .milliseconds(40)) } try out.finish()
/// ```
///
/// It streams: each frame is encoded and written when it is added, so
/// memory is a few canvases whatever the number of frames — except that
/// `WebPAnimEncoder` keeps the encoded frames until `finish()`, an APNG
/// reads back what it wrote when a frame needs a wider form (palette, RGB,
/// RGBA) and once more at `finish()` to cut its palette to size, and a GIF
/// is rewritten in place at `finish()` with its global table reordered
/// (`GIFReorder`). A frame identical to the one before is merged into it,
/// durations summed (not one of no duration). Unless `keepHiddenColors` is
/// set, the colour under fully transparent pixels is not kept. A file is
/// written to a temporary file in the same folder and renamed by
/// `finish()`: after any error, or `cancel()`, nothing is left behind and
/// an existing file at the path is untouched. Errors name the output, the
/// frame and the problem.
public final class ImageDestination {
    /// The format written.
    public let format: OutputFormat
    /// The options in use (`mergeIdenticalFrames` is off for an APNG to an
    /// output that cannot seek).
    public let options: EncodingOptions
    /// The canvas width, from the first frame (0 before it).
    public private(set) var width = 0
    /// The canvas height, from the first frame (0 before it).
    public private(set) var height = 0
    /// Frames added.
    public private(set) var framesAdded = 0
    /// Frames written after merging; the last frame added waits for the
    /// next one or `finish()`.
    public private(set) var framesWritten = 0
    /// Bytes written to the output so far (after `finish()`, the file's size).
    public var bytesWritten: Int { sink.offset }
    let sink: OutputSink
    private var writer: FrameWriter?
    private var pending: (image: RGBAImage, duration: Duration)?
    private var state = State.open
    /// Hidden colours (under alpha 0) are cleared from each frame (APNG, unless
    /// `options.keepHiddenColors`).
    private let clearsHiddenColors: Bool

    private enum State { case open, finished, failed }

    /// A file at `path`; the format from its extension unless given.
    public convenience init(path: String, format: OutputFormat? = nil, options: EncodingOptions = EncodingOptions()) throws {
        guard let format = format ?? OutputFormat(pathExtension: path) else {
            throw AnimError(file: path, EncodingProblem.unknownExtension)
        }
        try self.init(sink: OutputSink(path: path), format: format, options: options)
    }

    /// An open file descriptor (a pipe or a file), not closed by the destination.
    public convenience init(
        fileDescriptor: Int32, name: String = "<output>", format: OutputFormat,
        options: EncodingOptions = EncodingOptions()
    ) throws {
        try self.init(sink: OutputSink(fileDescriptor: fileDescriptor, name: name), format: format, options: options)
    }

    /// In memory: `data` holds the file after `finish()`. `name` is what
    /// errors call the output.
    public convenience init(format: OutputFormat, options: EncodingOptions = EncodingOptions(), name: String = "<memory>")
        throws
    {
        try self.init(sink: OutputSink(memoryNamed: name), format: format, options: options)
    }

    init(sink: OutputSink, format: OutputFormat, options: EncodingOptions) throws {
        let writing = Formats.writing(format)
        let unseekable = writing.countsFramesFirst && !sink.canPatch
        do {
            try options.check(for: format, file: sink.name)
            if unseekable && options.frameCount == nil { throw AnimError(file: sink.name, EncodingProblem.needsFrameCount) }
        } catch {
            sink.abort()
            throw error
        }
        var o = options
        if unseekable { o.mergeIdenticalFrames = false }
        (self.sink, self.format, self.options) = (sink, format, o)
        clearsHiddenColors = writing.clearsHiddenColors && !options.keepHiddenColors
    }

    /// The temporary file being written, for a file output (removed or
    /// renamed by `finish()` and `cancel()`; a signal handler may unlink
    /// it).
    package var temporaryPath: String? {
        if case .file(_, let temp, _) = sink.target { return temp }
        return nil
    }

    /// The encoded file, after `finish()`, when writing to memory.
    public var data: [UInt8]? {
        guard state == .finished, case .memory = sink.target else { return nil }
        return sink.memory
    }

    /// Adds a frame (the canvas: every frame the size of the first) shown
    /// for `duration` (default: `options.defaultDuration`).
    public func add(_ frame: RGBAImage, duration: Duration? = nil) throws {
        try guarded {
            let index = framesAdded
            if writer == nil {
                guard frame.width > 0, frame.height > 0, frame.width <= 65535, frame.height <= 65535 else {
                    throw AnimError(file: sink.name, EncodingProblem.canvasSize(width: frame.width, height: frame.height))
                }
                (width, height) = (frame.width, frame.height)
                writer = try Formats.writing(format).writer(sink, width, height, options) { bytes, name in
                    // The values as written: converted through the file's
                    // profile, frames written again would change colour.
                    var reading = DecodingOptions(durationPolicy: .raw, decodeAhead: 0)
                    reading.colorManagement = .none
                    let written = try ImageSource(data: bytes, name: name, options: reading)
                    return (written.frameCount, written.frame(at:))
                }
            } else if frame.width != width || frame.height != height {
                throw AnimError(
                    file: sink.name, frame: index,
                    EncodingProblem.frameSize(width: frame.width, height: frame.height, firstWidth: width, firstHeight: height))
            }
            let d = duration ?? options.defaultDuration
            // APNG: hidden colours as transparent black; libwebp has its
            // own clean-up (smoother for lossy frames), GIF has no hidden
            // colour.
            let frame = clearsHiddenColors ? frame.invisibleCleared() : frame
            framesAdded += 1
            // (Not frames of no duration: a GIF image stored without delay
            // plays 100 ms in browsers, alone or not.)
            if let p = pending, options.mergeIdenticalFrames, p.duration > .zero, d > .zero, p.image == frame {
                pending = (p.image, p.duration + d)
                return
            }
            try flushPending()
            pending = (frame, d)
        }
    }

    /// Writes what remains and makes the output final (renames the file).
    public func finish() throws {
        try guarded {
            guard writer != nil else {
                throw AnimError(file: sink.name, EncodingProblem.noFrame)
            }
            try flushPending()
            try writer?.finish()
            try sink.commit()
            state = .finished
        }
    }

    /// Abandons the output: nothing is left behind.
    public func cancel() {
        if state == .open { state = .failed }
        sink.abort()
    }

    private func flushPending() throws {
        guard let p = pending, let writer else { return }
        pending = nil
        try writer.add(p.image, duration: p.duration, index: framesWritten)
        framesWritten += 1
    }

    private func guarded(_ body: () throws -> Void) throws {
        switch state {
        case .finished:
            throw AnimError(file: sink.name, EncodingProblem.alreadyFinished)
        case .failed:
            throw AnimError(file: sink.name, EncodingProblem.failedEarlier)
        case .open: break
        }
        do { try body() } catch {
            state = .failed
            sink.abort()
            throw error
        }
    }
}
