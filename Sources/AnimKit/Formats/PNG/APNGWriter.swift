/// Writes an APNG frame by frame: the first frame as the default image
/// (`IDAT`), each later one as the rectangle that changed (`fdAT`), with
/// the disposal of the frame before and the blend that compress best, as
/// APNG Assembler chooses them.
///
/// Pixels are stored as compactly as the frames allow (`PixelMode.widest`):
/// grey while all frames are grey and `keyed` (no alpha but 0 and 255);
/// palette indices while they have at most 256 colours together; grey and
/// alpha while they are grey; RGB while they are keyed; else RGBA. Grey
/// and RGB name a colour no frame has transparent (`tRNS`), for
/// transparent pixels and frames blended OVER; a palette keeps an entry
/// for it unless 256 opaque colours fill it. Frames come one at a time, so
/// the writer starts with what the first frame allows; when a later frame
/// needs more (a 257th colour, a transparent pixel), it reads back what it
/// wrote, and writes those frames again in the wider form (only on an
/// output it can read back and rewind: a pipe is written as RGBA from the
/// start).
///
/// Each frame's rows are filtered as libpng would and deflated by
/// libdeflate. `acTL`'s frame count and the palette are patched at
/// `finish()`, or the count is given up front for an output that cannot
/// seek.
final class APNGWriter: FrameWriter {
    let sink: OutputSink
    let width: Int, height: Int
    let options: EncodingOptions
    let compression: Int
    var state: Stream
    /// Decodes what was written, to start over in a wider form.
    let readBack: ReadBack

    init(sink: OutputSink, width: Int, height: Int, options: EncodingOptions, readBack: @escaping ReadBack) throws {
        self.sink = sink
        self.readBack = readBack
        self.width = width
        self.height = height
        self.options = options
        compression = options.quality >= 75 ? 12 : options.quality >= 50 ? 10 : max(1, options.quality / 8)
        state = Stream(mode: nil)
    }

    /// What has been written of the current attempt.
    struct Stream {
        var mode: PixelMode?
        /// Bits a pixel: below 8 only for a palette of at most 16 entries
        /// (as frame 0 has it), its indices packed (1/2/4 bits), which
        /// deflate far better. Packed frames' rectangles start at the top
        /// left corner: ffmpeg 5.1 unpacks a sub-frame's rows there
        /// whatever its offset (Pillow, libpng and Chromium do not). Each
        /// frame is also sized at 8 bits with its own rectangle
        /// (`Estimate`); once that is smaller over the frames so far, the
        /// file starts again at 8.
        var depth = 8
        var estimate = Estimate()
        /// Bytes of filtered rows of the frames so far.
        var rows = 0
        var sequence: UInt32 = 0
        /// The duration of each frame written (or being written).
        var durations: [Duration] = []
        var frames: Int { durations.count }
        var delays = DelayFractions()
        var palette = Palette()
        /// Where the data of `acTL`, `PLTE` and `tRNS` starts, to patch them.
        var offsets = (actl: 0, plte: 0, trns: 0)
        /// A pixel not opaque, one neither opaque nor fully transparent, and
        /// one not grey (R, G, B not all equal), in a frame so far.
        var seen = (transparent: false, translucent: false, colour: false)
        /// Grey or RGB: the colour no frame so far has, named transparent
        /// by `tRNS`, which transparent pixels and the unchanged pixels of a
        /// frame blended OVER take.
        var key: UInt32?
        /// The last frame written (nil before the first); the canvas it
        /// was drawn on (nil: the empty one, for the first frame) and its
        /// rectangle, for the disposals.
        var last = (frame: RGBAImage?.none, base: RGBAImage?.none, rect: Rect(x: 0, y: 0, width: 0, height: 0))
    }

    /// Filtered rows up to which an animation is deflated by zopfli too
    /// from effort 7, where it costs under a second in all.
    static let smallAnimationRows = 16 << 10

    /// Deflated sizes of the frames so far as packed and as 8-bit
    /// indices, each with its rectangle.
    struct Estimate {
        var packed = 0, bytes = 0
        var unpack: Bool { bytes < packed }
    }

    /// Every RGB colour the frames so far show, for choosing the key.
    var seen: ColorBitmap?

    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {
        if let frameCount = options.frameCount, state.frames >= frameCount, !sink.canPatch {
            throw AnimError(file: sink.name, frame: index, PNGProblem.moreFramesThanAnnounced(announced: frameCount))
        }
        var choices = candidates(frame)
        if let mode = state.mode, !fits(frame, mode, union(choices)) {
            try startOver(wider: frame)
            choices = candidates(frame)  // against the frame before, as written again
        }
        try write(frame, duration: duration, index: index, choices: choices)
        // Packing cost more than it saved: the frames again, frame included, at 8 bits.
        if state.depth < 8 && state.estimate.unpack { try startOver(wider: frame) }
    }

    /// One way to draw a frame: the disposal of the frame before it, the
    /// canvas that leaves, and the rectangle where the frame differs from
    /// it (`tight`; `rect` is what is sent, from the corner when packed).
    struct Choice {
        let dispose: UInt8
        let canvas: RGBAImage?
        let rect: Rect
        let tight: Rect
    }

    /// The disposals of the frame before worth trying for `frame`, as
    /// apngasm tries them: NONE (the canvas keeps the frame before);
    /// BACKGROUND (its rectangle cleared), when `frame` has a transparent
    /// pixel there and the mode can show one; PREVIOUS (the canvas goes
    /// back to what the frame before was drawn on). `write` keeps the one
    /// that deflates smallest. The first frame is the whole canvas.
    func candidates(_ frame: RGBAImage) -> [Choice] {
        guard let prev = state.last.frame else {
            let all = Rect(x: 0, y: 0, width: width, height: height)
            return [Choice(dispose: 0, canvas: nil, rect: all, tight: all)]
        }
        func choice(_ dispose: UInt8, _ canvas: RGBAImage) -> Choice {
            let r = FrameDiff.changedRect(canvas, frame) ?? Rect(x: 0, y: 0, width: 1, height: 1)
            // Packed: from the top left corner (see `Stream.depth`).
            let sent = state.depth < 8 ? Rect(x: 0, y: 0, width: r.x + r.width, height: r.y + r.height) : r
            return Choice(dispose: dispose, canvas: canvas, rect: sent, tight: r)
        }
        let none = choice(0, prev)
        // Disposals other than NONE change the fcTL of the frame before,
        // which must still be waiting in the queue.
        guard !queued.isEmpty, options.effort >= 3 else { return [none] }
        var list = [none]
        let last = state.last.rect
        // Grey or RGB: only with black as the key, as Pillow fills a cleared
        // area with black there (opaque unless black is the key).
        if (state.mode?.opaqueOnly != true || state.key == 0) && !frame.isOpaque(in: last, width: width) {
            list.append(choice(1, prev.clearing(last)))
        }
        // PREVIOUS after the first frame only: there it means BACKGROUND.
        if state.frames >= 2, let base = state.last.base { list.append(choice(2, base)) }
        return list
    }

    /// The rectangle holding every choice's.
    func union(_ choices: [Choice]) -> Rect { choices.dropFirst().reduce(choices[0].rect) { $0.union($1.rect) } }

    func write(_ frame: RGBAImage, duration: Duration, index: Int, choices: [Choice]) throws {
        let area = union(choices)
        let opaque = frame.isOpaque(in: area, width: width)
        // A key replaces the colour of transparent pixels: not when it is kept.
        let binary = opaque || !options.keepHiddenColors && frame.isBinaryAlpha(in: area, width: width)
        state.seen.transparent = state.seen.transparent || !opaque
        state.seen.translucent = state.seen.translucent || !binary
        state.seen.colour = state.seen.colour || !frame.isGrey(in: area, width: width)
        if sink.canReadBack && !state.seen.translucent {
            if seen == nil { seen = ColorBitmap() }
            seen!.mark(frame, area, width: width)
        }
        if state.mode == nil {
            var palette = state.palette.canHold(frame, area, width: width)
            if !palette && opaque && Palette(reserve: false).canHold(frame, area, width: width) {
                state.palette = Palette(reserve: false)
                palette = true
            }
            let mode: PixelMode =
                !sink.canReadBack
                ? .rgba
                : PixelMode.widest(
                    grey: !state.seen.colour, keyed: opaque || binary && keyAvailable(grey: !state.seen.colour),
                    palette: palette)
            if mode == .palette && state.frames == 0 {
                let depth = Palette.depth(
                    for: state.palette.colors.count + state.palette.newColors(frame, area, width: width, limit: 256))
                if depth < 8 {
                    state.mode = mode  // for `pixels`; `header` writes it
                    state.palette.add(frame, area, width: width)
                    try estimate(frame, choices[0], masking: nil, packed: depth, index: index)
                    if !state.estimate.unpack { state.depth = depth }
                }
            }
            try header(mode)
        }
        if state.mode == .palette { state.palette.add(frame, area, width: width) }
        state.durations.append(duration)
        let (num, den) = state.delays.next(duration)
        guard state.last.frame != nil else {
            let rect = choices[0].rect
            try queue(pixels(frame, rect, masking: nil), rect, num: num, den: den, blend: 0, index: index)
            state.last = (frame, nil, rect)
            return
        }
        // Each choice with SOURCE, and with OVER when unchanged pixels can
        // be transparent: every changed pixel opaque (blending it over the
        // old one gives it exactly) and a mode with a transparent pixel.
        // Compared deflated at level 6 (level 3 misjudges them); only the
        // choice gets the slow deflate.
        var best: (pixels: [UInt8], choice: Choice, blend: UInt8, size: Int)?
        for c in choices {
            var variants = [(pixels(frame, c.rect, masking: nil), UInt8(0))]
            if canBlendOver && changedAreOpaque(c.canvas!, frame, c.rect) {
                variants.append((pixels(frame, c.rect, masking: c.canvas), 1))
            }
            for (px, blend) in variants {
                let size =
                    choices.count == 1 && variants.count == 1
                    ? 0 : try deflate(px, c.rect, level: 6, search: false, index: index).count
                if best == nil || size < best!.size { best = (px, c, blend, size) }
            }
        }
        let pick = best!
        if state.depth < 8 {
            try estimate(
                frame, pick.choice, masking: pick.blend == 1 ? pick.choice.canvas : nil, packed: state.depth,
                known: pick.size > 0 ? pick.size : nil, index: index)
        }
        if pick.choice.dispose != 0 { queued[queued.count - 1].dispose = pick.choice.dispose }
        try queue(pick.pixels, pick.choice.rect, num: num, den: den, blend: pick.blend, index: index)
        state.last = (frame, pick.choice.canvas, pick.choice.rect)
    }

    /// Adds `choice`'s sizes packed at `packed` bits (its `rect`) and at 8
    /// bits (its `tight` one) to the estimate: deflated at level 6, as
    /// libdeflate's level 3 misjudges them. `known`: the packed size, when
    /// the choice of blend measured it.
    func estimate(
        _ frame: RGBAImage, _ choice: Choice, masking: RGBAImage?, packed: Int, known: Int? = nil, index: Int
    ) throws {
        if let known { state.estimate.packed += known }
        for (bits, r) in [(packed, choice.rect), (8, choice.tight)] where bits == 8 || known == nil {
            let px = pixels(frame, r, masking: masking, depth: bits)
            let size = try deflate(px, r, level: 6, search: false, index: index, depth: bits).count
            if bits == 8 { state.estimate.bytes += size } else { state.estimate.packed += size }
        }
    }

    /// Whether a `tRNS` key is left for transparent pixels: a grey level or
    /// RGB colour no frame so far shows.
    func keyAvailable(grey: Bool) -> Bool {
        guard let seen else { return false }
        return grey ? seen.keyGrey() != nil : seen.keyColour() != nil
    }

    /// Whether unchanged pixels can be written transparent, for OVER: a
    /// mode with alpha, a `tRNS` key, or a palette's transparent entry.
    var canBlendOver: Bool {
        switch state.mode! {
        case .palette: state.palette.transparentIndex != nil
        case .grey, .rgb: state.key != nil
        case .greyAlpha, .rgba: true
        }
    }

    /// Frames whose data is being deflated on other threads while the
    /// caller prepares the next ones (deflating is most of the time), at
    /// most one per core; written in order.
    var queued: [Queued] = []
    let depth = max(1, min(System.activeProcessorCount, 4))
}
