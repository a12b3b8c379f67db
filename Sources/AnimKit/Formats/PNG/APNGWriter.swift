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
/// for it unless 256 opaque colours fill it. Frames come one at a time, so the writer starts with
/// what the first frame allows; when a later frame needs more (a 257th
/// colour, a transparent pixel), it reads back what it wrote, and writes
/// those frames again in the wider form (only on an output it can read
/// back and rewind: a pipe is written as RGBA from the start).
///
/// Each frame's rows are filtered as libpng would and deflated by
/// libdeflate. `acTL`'s frame
/// count and the palette are patched at `finish()`, or the count is given
/// up front for an output that cannot seek.
final class APNGWriter: FrameWriter {
    let sink: OutputSink
    let width: Int, height: Int
    let options: EncodingOptions
    private let compression: Int
    private var state: Stream
    /// Decodes what was written, to start over in a wider form.
    private let readBack: ReadBack

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
        var previous: RGBAImage?
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
        /// The canvas the last frame was drawn on (nil: the empty one,
        /// for the first frame) and its rectangle, for the disposals.
        var base: RGBAImage?
        var lastRect: PixelRect = (0, 0, 0, 0)
    }

    /// Filtered rows up to which an animation is deflated by zopfli too
    /// from effort 7 (wuffs' muybridge, 15 frames of 30×20: 8,455 → 8,196
    /// bytes in 0.6 s; APNG Assembler 8,418).
    static let smallAnimationRows = 16 << 10

    /// Deflated sizes of the frames so far as packed and as 8-bit
    /// indices, each with its rectangle.
    struct Estimate {
        var packed = 0, bytes = 0
        var unpack: Bool { bytes < packed }
    }

    /// Every RGB colour the frames so far show, for choosing the key.
    private var seen: ColorBitmap?

    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {
        if let frameCount = options.frameCount, state.frames >= frameCount, !sink.canPatch {
            throw AnimError.malformed(
                file: sink.name, frame: index, offset: nil,
                reason: "more frames than the \(frameCount) announced")
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
        let rect: PixelRect
        let tight: PixelRect
    }

    /// The disposals of the frame before worth trying for `frame`, as
    /// apngasm tries them: NONE (the canvas keeps the frame before);
    /// BACKGROUND (its rectangle cleared), when `frame` has a transparent
    /// pixel there and the mode can show one; PREVIOUS (the canvas goes
    /// back to what the frame before was drawn on). `write` keeps the one
    /// that deflates smallest. The first frame is the whole canvas.
    private func candidates(_ frame: RGBAImage) -> [Choice] {
        guard let prev = state.previous else {
            let all: PixelRect = (0, 0, width, height)
            return [Choice(dispose: 0, canvas: nil, rect: all, tight: all)]
        }
        func choice(_ dispose: UInt8, _ canvas: RGBAImage) -> Choice {
            let r: PixelRect = FrameDiff.changedRect(canvas, frame).map { ($0.x, $0.y, $0.width, $0.height) } ?? (0, 0, 1, 1)
            // Packed: from the top left corner (see `Stream.depth`).
            let sent: PixelRect = state.depth < 8 ? (0, 0, r.x + r.w, r.y + r.h) : r
            return Choice(dispose: dispose, canvas: canvas, rect: sent, tight: r)
        }
        let none = choice(0, prev)
        // Disposals other than NONE change the fcTL of the frame before,
        // which must still be waiting in the queue.
        guard !queued.isEmpty, options.effort >= 3 else { return [none] }
        var list = [none]
        let last = state.lastRect
        // Grey or RGB: only with black as the key, as Pillow fills a cleared
        // area with black there (opaque unless black is the key).
        if (state.mode?.opaqueOnly != true || state.key == 0) && !frame.isOpaque(in: last, width: width) {
            list.append(choice(1, prev.clearing(last)))
        }
        // PREVIOUS after the first frame only: there it means BACKGROUND.
        if state.frames >= 2, let base = state.base { list.append(choice(2, base)) }
        return list
    }

    /// The rectangle holding every choice's.
    private func union(_ choices: [Choice]) -> PixelRect {
        let x0 = choices.map(\.rect.x).min()!
        let y0 = choices.map(\.rect.y).min()!
        let x1 = choices.map { $0.rect.x + $0.rect.w }.max()!
        let y1 = choices.map { $0.rect.y + $0.rect.h }.max()!
        return (x0, y0, x1 - x0, y1 - y0)
    }

    private func write(_ frame: RGBAImage, duration: Duration, index: Int, choices: [Choice]) throws {
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
        guard state.previous != nil else {
            let rect = choices[0].rect
            try queue(pixels(frame, rect, masking: nil), rect, num: num, den: den, blend: 0, index: index)
            finishFrame(frame, canvas: nil, rect: rect)
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
        finishFrame(frame, canvas: pick.choice.canvas, rect: pick.choice.rect)
    }

    /// Adds `choice`'s sizes packed at `packed` bits (its `rect`) and at 8
    /// bits (its `tight` one) to the estimate: deflated at level 6, as
    /// libdeflate's level 3 misjudges them (Pillow's star.gif: packed by it,
    /// 5% larger than at 8 bits).
    /// `known`: the packed size, when the choice of blend measured it.
    private func estimate(
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
    private func keyAvailable(grey: Bool) -> Bool {
        guard let seen else { return false }
        return grey ? seen.keyGrey() != nil : seen.keyColour() != nil
    }

    /// Whether unchanged pixels can be written transparent, for OVER: a
    /// mode with alpha, a `tRNS` key, or a palette's transparent entry.
    private var canBlendOver: Bool {
        switch state.mode! {
        case .palette: state.palette.transparentIndex != nil
        case .grey, .rgb: state.key != nil
        case .greyAlpha, .rgba: true
        }
    }

    /// Records `frame` as drawn on `canvas` (nil: the empty canvas) in `rect`.
    private func finishFrame(_ frame: RGBAImage, canvas: RGBAImage?, rect: PixelRect) {
        state.base = canvas
        state.lastRect = rect
        state.previous = frame
    }

    func finish() throws {
        try writeQueued()
        try chunk(.IEND, [])
        if let expected = options.frameCount, expected != state.frames, !sink.canPatch {
            throw AnimError.malformed(
                file: sink.name, frame: nil, offset: nil,
                reason: "\(state.frames) frames written, \(expected) announced in acTL")
        }
        if sink.canPatch && !still { try patchCounts { try sink.patch($0, at: $1) } }
        try compactPalette()
        if state.frames == 1 && !still { try dropAnimationChunks() }
    }

    /// Rewrites a file of one frame as a plain PNG: the default image is
    /// that frame, so `acTL` and its `fcTL` go and nothing else changes.
    /// Left animated on an output that cannot be read back and rewound.
    private func dropAnimationChunks() throws {
        guard let bytes = sink.readAll() else { return }
        var kept: [UInt8] = Array(bytes.prefix(8))
        kept.reserveCapacity(bytes.count)
        var at = 8
        while at + 12 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let end = at + 12 + length
            guard end <= bytes.count else { return }
            let type = PNGChunkType(
                rawValue: UInt32(bytes[at + 4]) << 24 | UInt32(bytes[at + 5]) << 16 | UInt32(bytes[at + 6]) << 8
                    | UInt32(bytes[at + 7]))
            if type != .acTL && type != .fcTL { kept += bytes[at..<end] }
            at = end
        }
        guard sink.rewind() else { return }
        try sink.write(kept)
    }

    /// Rewrites a palette file with PLTE and tRNS cut to the colours used
    /// (room for the bit depth's entries was kept while frames came): a few hundred bytes, which
    /// matter for small files. Skipped above 64 MiB (the file is read back).
    private func compactPalette() throws {
        guard state.mode == .palette, sink.offset <= 64 << 20, let bytes = sink.readAll() else { return }
        let (plte, trns) = state.palette.chunks(entries: 1 << state.depth)
        let used = state.palette.colors.count
        var head = Array(bytes[..<(state.offsets.plte - 8)])
        PNGChunk.append(.PLTE, Array(plte[..<(used * 3)]), to: &head)
        if let lastTranslucent = trns[..<used].lastIndex(where: { $0 != 255 }) {
            PNGChunk.append(.tRNS, Array(trns[...lastTranslucent]), to: &head)
        }
        let rest = bytes[(state.offsets.trns + (1 << state.depth) + 4)...]
        guard sink.rewind() else { return }
        try sink.write(head)
        try sink.write(Array(rest))
    }

    /// Writes the frame count and the palette into the chunks reserved for them.
    private func patchCounts(_ patch: ([UInt8], Int) throws -> Void) throws {
        var actl = BigEndian()
        actl.u32(UInt32(state.frames))
        actl.u32(UInt32(max(options.plays, 0)))
        try patch(actl.bytes + PNGChunk.crcField(.acTL, actl.bytes), state.offsets.actl)
        if state.mode == .palette {
            let (plte, trns) = state.palette.chunks(entries: 1 << state.depth)
            try patch(plte + PNGChunk.crcField(.PLTE, plte), state.offsets.plte)
            try patch(trns + PNGChunk.crcField(.tRNS, trns), state.offsets.trns)
        }
    }

    // MARK: modes

    private func fits(_ frame: RGBAImage, _ mode: PixelMode, _ rect: PixelRect) -> Bool {
        switch mode {
        case .rgba: return true
        case .greyAlpha: return frame.isGrey(in: rect, width: width)
        case .rgb, .grey:
            guard mode == .rgb || frame.isGrey(in: rect, width: width) else { return false }
            guard
                frame.isOpaque(in: rect, width: width)
                    || state.key != nil && !options.keepHiddenColors
                        && frame.isBinaryAlpha(in: rect, width: width)
            else { return false }
            return !(state.key.map { frame.contains($0, in: rect, width: width) } ?? false)
        case .palette: return state.palette.canHold(frame, rect, width: width, capacity: 1 << state.depth)
        }
    }

    /// Reads back the frames written so far and writes them again in a
    /// form that also holds `frame`.
    private func startOver(wider frame: RGBAImage) throws {
        try writeQueued()
        guard var bytes = sink.readAll(), sink.canReadBack else {
            throw AnimError.malformed(
                file: sink.name, frame: state.frames, offset: nil,
                reason: "cannot widen the pixel format on an output that cannot be read back")
        }
        // A complete file of the frames so far, to decode.
        try patchCounts { patch, at in bytes.replaceSubrange(at..<(at + patch.count), with: patch) }
        PNGChunk.append(.IEND, [], to: &bytes)
        let written = try readBack(bytes, sink.name)
        let durations = state.durations
        let all: PixelRect = (0, 0, width, height)
        // A packed palette that outgrows its depth stays a palette, at 8
        // bits, when the new frame's colours fit. Opaque frames whose
        // colours fill all 256 entries give up the transparent one.
        let opaque = !state.seen.transparent && frame.isOpaque(in: all, width: width)
        let binary =
            !state.seen.translucent && !options.keepHiddenColors && frame.isBinaryAlpha(in: all, width: width)
        if binary { seen?.mark(frame, all, width: width) }  // the new key avoids it too
        let grey = !state.seen.colour && frame.isGrey(in: all, width: width)
        let keep = state.mode == .palette && state.depth < 8 && state.palette.canHold(frame, all, width: width)
        // From grey or RGB with a key, the colours so far are the marked
        // ones (and transparency): a palette when they fit.
        let marked = state.mode?.opaqueOnly == true && binary ? seen?.count : nil
        let unreserved =
            !keep && opaque
            && (state.mode == .palette && state.palette.unreserved().canHold(frame, all, width: width) || marked == 256)
        let mode: PixelMode =
            keep
            ? .palette
            : PixelMode.widest(
                grey: grey, keyed: opaque || binary && keyAvailable(grey: grey),
                palette: unreserved || (marked ?? 256) < 256)
        guard sink.rewind() else {
            throw AnimError.io(path: sink.name, operation: "rewind", errno: 0, message: "the output cannot be rewound")
        }
        state = Stream(mode: nil)
        if mode == .palette && unreserved { state.palette = Palette(reserve: false) }
        try header(mode)
        for i in 0..<written.frameCount {
            let again = try written.frame(i)
            try write(again, duration: durations[i], index: i, choices: candidates(again))
        }
    }

    // MARK: compressing beside the next frame

    /// Frames whose data is being deflated on other threads while the
    /// caller prepares the next ones (deflating is most of the time), at
    /// most one per core; written in order.
    private var queued: [Queued] = []

    /// A frame waiting for its data; its `dispose` is settled by the next frame.
    struct Queued {
        let job: Pending<[UInt8]?>
        let rect: PixelRect
        let num: UInt16, den: UInt16, blend: UInt8, index: Int
        var dispose: UInt8 = 0
    }
    private let depth = max(1, min(System.activeProcessorCount, 4))

    /// Starts deflating this frame, after writing the oldest queued one if
    /// as many as there are cores are in flight.
    private func queue(_ pixels: [UInt8], _ r: PixelRect, num: UInt16, den: UInt16, blend: UInt8, index: Int) throws {
        if queued.count >= depth { try writeOldest() }
        let (level, search, channels) = (compression, options.quality >= 75, state.mode!.channels)
        let rowWidth = packedWidth(r.w)
        // zopfli: 15 iterations, as zopflipng; from effort 7 also while the
        // animation is small, where it costs under half a second in all.
        state.rows += r.h * (rowWidth * channels + 1)
        let small = options.effort >= 7 && state.rows <= Self.smallAnimationRows
        let zopfli = options.effort >= 9 || small ? 15 : 0
        let job = WorkerPool.shared.submit {
            pixels.withUnsafeBytes {
                PNGBridge.deflate(
                    pixels: $0, width: rowWidth, height: r.h, channels: channels, level: level, search: search,
                    zopfli: zopfli)
            }
        }
        queued.append(Queued(job: job, rect: r, num: num, den: den, blend: blend, index: index))
    }

    /// Writes every queued frame.
    private func writeQueued() throws {
        while !queued.isEmpty { try writeOldest() }
    }

    /// Waits for the oldest queued frame's data and writes its fcTL and data chunks.
    private func writeOldest() throws {
        let q = queued.removeFirst()
        guard let zlib = q.job.get() else {
            throw AnimError.library(
                file: sink.name, frame: q.index, library: "libdeflate", message: "compressing the frame failed")
        }
        try control(q.rect, num: q.num, den: q.den, dispose: q.dispose, blend: q.blend)
        try data(zlib, fdAT: state.sequence > 1)
    }

    // MARK: chunks

    private func header(_ mode: PixelMode) throws {
        state.mode = mode
        try sink.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = BigEndian()
        ihdr.u32(UInt32(width))
        ihdr.u32(UInt32(height))
        ihdr.bytes += [mode == .palette ? UInt8(state.depth) : 8, mode.colorType, 0, 0, 0]
        try chunk(.IHDR, ihdr.bytes)
        if !still {
            var actl = BigEndian()
            actl.u32(UInt32(options.frameCount ?? 0))
            actl.u32(UInt32(max(options.plays, 0)))
            state.offsets.actl = sink.offset + 8
            try chunk(.acTL, actl.bytes)
        }
        for c in PNGMetadataChunks.chunks(options.metadata) { try chunk(c.type, c.body) }
        if mode == .rgb, let key = seen?.keyColour() {
            state.key = key
            try chunk(.tRNS, [0, UInt8(key & 0xFF), 0, UInt8(key >> 8 & 0xFF), 0, UInt8(key >> 16 & 0xFF)])
        }
        if mode == .grey, let level = seen?.keyGrey() {
            state.key = level * 0x01_0101
            try chunk(.tRNS, [0, UInt8(level)])
        }
        if mode == .palette {
            // Room for as many entries as the bit depth holds, filled in at
            // the end (libpng drops a tRNS longer than the palette).
            state.offsets.plte = sink.offset + 8
            try chunk(.PLTE, [UInt8](repeating: 0, count: 3 << state.depth))
            state.offsets.trns = sink.offset + 8
            try chunk(.tRNS, [UInt8](repeating: 255, count: 1 << state.depth))
        }
    }

    /// A still image announced up front (one frame on an output that
    /// cannot seek): a plain PNG, with no `acTL` or `fcTL`.
    private var still: Bool { options.frameCount == 1 }

    private func control(_ r: PixelRect, num: UInt16, den: UInt16, dispose: UInt8, blend: UInt8) throws {
        if still { return }
        var c = BigEndian()
        c.u32(state.sequence)
        state.sequence += 1
        c.u32(UInt32(r.w))
        c.u32(UInt32(r.h))
        c.u32(UInt32(r.x))
        c.u32(UInt32(r.y))
        c.u16(num)
        c.u16(den)
        c.bytes += [dispose, blend]
        try chunk(.fcTL, c.bytes)
    }

    /// A frame's zlib stream as IDAT or fdAT chunks (of at most 1 MiB).
    private func data(_ zlib: [UInt8], fdAT: Bool) throws {
        var start = 0
        repeat {
            let body = Array(zlib[start..<min(start + (1 << 20), zlib.count)])
            start += body.count
            if fdAT {
                var d = BigEndian()
                d.u32(state.sequence)
                state.sequence += 1
                try chunk(.fdAT, d.bytes + body)
            } else {
                try chunk(.IDAT, body)
            }
        } while start < zlib.count
    }

    private func chunk(_ type: PNGChunkType, _ body: [UInt8]) throws {
        try sink.write(PNGChunk.bytes(type, body))
    }

    // MARK: pixels

    /// The rectangle `r` of `frame` in the current mode (palette indices,
    /// RGB or RGBA), palette indices packed at `depth` bits (default the
    /// file's); with `masking`, pixels equal to it are transparent.
    private func pixels(_ frame: RGBAImage, _ r: PixelRect, masking prev: RGBAImage?, depth: Int? = nil) -> [UInt8] {
        let depth = depth ?? state.depth
        let mode = state.mode!
        let channels = mode.channels
        var out = [UInt8](repeating: 0, count: r.w * r.h * channels)
        let empty: [UInt8] = []
        // Read once, not per pixel (each read of `state` is checked for
        // exclusive access); the last pixel's index kept for runs.
        let (palette, key) = (state.palette, state.key)
        var last: (pixel: UInt32, index: UInt8)? = nil
        (prev?.pixels ?? empty).withUnsafeBytes { oldRaw in
            frame.pixels.withUnsafeBytes { src in
                let px = src.bindMemory(to: UInt32.self)
                let old: UnsafeBufferPointer<UInt32>? = prev == nil ? nil : oldRaw.bindMemory(to: UInt32.self)
                var o = 0
                for y in 0..<r.h {
                    let row = (r.y + y) * width + r.x
                    for x in 0..<r.w {
                        let p = px[row + x]
                        let masked = old.map { $0[row + x] == p } ?? false
                        switch mode {
                        case .palette:
                            if masked {
                                out[o] = palette.transparentIndex!
                            } else {
                                if last?.pixel != p { last = (p, palette.index(of: p)) }
                                out[o] = last!.index
                            }
                        case .grey:
                            out[o] = UInt8((masked || p >> 24 == 0 ? (key ?? p) : p) & 0xFF)
                        case .greyAlpha:
                            if !masked {
                                out[o] = UInt8(p & 0xFF)
                                out[o + 1] = UInt8(p >> 24)
                            }
                        case .rgb:
                            let q = masked || p >> 24 == 0 ? (key ?? p) : p
                            out[o] = UInt8(q & 0xFF)
                            out[o + 1] = UInt8(q >> 8 & 0xFF)
                            out[o + 2] = UInt8(q >> 16 & 0xFF)
                        case .rgba:
                            if !masked {
                                out[o] = UInt8(p & 0xFF)
                                out[o + 1] = UInt8(p >> 8 & 0xFF)
                                out[o + 2] = UInt8(p >> 16 & 0xFF)
                                out[o + 3] = UInt8(p >> 24)
                            }
                        }
                        o += channels
                    }
                }
            }
        }
        return depth < 8 ? Self.pack(out, width: r.w, height: r.h, depth: depth) : out
    }

    /// The zlib stream of a rectangle's pixels in the current mode: rows
    /// filtered as libpng does (none for palettes, else adaptive; with
    /// `search` also whole-frame Sub, Up or Paeth when a quick deflate finds
    /// them smaller), deflated by libdeflate (levels 10-12: 4-10% smaller
    /// than zlib's 9 on the benchmark frames).
    private func deflate(
        _ pixels: [UInt8], _ r: PixelRect, level: Int, search: Bool, index: Int, depth: Int? = nil
    ) throws -> [UInt8] {
        guard
            let zlib = pixels.withUnsafeBytes({
                PNGBridge.deflate(
                    pixels: $0, width: packedWidth(r.w, depth: depth), height: r.h, channels: state.mode!.channels,
                    level: level,
                    search: search)
            })
        else {
            throw AnimError.library(file: sink.name, frame: index, library: "libdeflate", message: "compressing the frame failed")
        }
        return zlib
    }

    /// The width to filter rows of `w` pixels as: `w`, or for a packed
    /// palette the bytes of a row (PNG's filters then work on bytes).
    private func packedWidth(_ w: Int, depth: Int? = nil) -> Int {
        let depth = depth ?? state.depth
        return depth < 8 ? (w * depth + 7) / 8 : w
    }

    /// Palette indices, one byte each, packed `depth` bits a pixel, rows
    /// starting on a byte, the first pixel in the high bits (as PNG has them).
    static func pack(_ indices: [UInt8], width w: Int, height h: Int, depth: Int) -> [UInt8] {
        let rowBytes = (w * depth + 7) / 8
        let perByte = 8 / depth
        var out = [UInt8](repeating: 0, count: rowBytes * h)
        for y in 0..<h {
            for x in 0..<w {
                let shift = 8 - depth * (x % perByte + 1)
                out[y * rowBytes + x / perByte] |= indices[y * w + x] << shift
            }
        }
        return out
    }

    /// True when every pixel of `r` that differs from `prev` is opaque in `cur`.
    private func changedAreOpaque(_ prev: RGBAImage, _ cur: RGBAImage, _ r: PixelRect) -> Bool {
        prev.pixels.withUnsafeBytes { pa in
            cur.pixels.withUnsafeBytes { pb in
                let wa = pa.bindMemory(to: UInt32.self)
                let wb = pb.bindMemory(to: UInt32.self)
                for y in r.y..<(r.y + r.h) {
                    for x in r.x..<(r.x + r.w) {
                        let i = y * width + x
                        if wa[i] != wb[i] && wb[i] >> 24 != 0xFF { return false }
                    }
                }
                return true
            }
        }
    }
}

typealias PixelRect = (x: Int, y: Int, w: Int, h: Int)

/// How an APNG stores its pixels.
enum PixelMode {
    case palette, grey, greyAlpha, rgb, rgba

    var colorType: UInt8 {
        switch self {
        case .grey: 0
        case .rgb: 2
        case .palette: 3
        case .greyAlpha: 4
        case .rgba: 6
        }
    }

    var channels: Int {
        switch self {
        case .palette, .grey: 1
        case .greyAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// No alpha channel: a transparent pixel only through a `tRNS` key.
    var opaqueOnly: Bool { self == .grey || self == .rgb }

    /// The most compact mode for frames that are all grey or not, fit a
    /// palette or not, and are `keyed` or not: opaque, or with no alpha but
    /// 0 and 255 and a colour left for a `tRNS` key (as APNG Assembler
    /// writes a GIF's frames: RGB, a quarter smaller than RGBA). Keyed grey
    /// goes without a palette (no PLTE to carry); other grey takes one if
    /// it fits.
    static func widest(grey: Bool, keyed: Bool, palette: Bool) -> PixelMode {
        if grey && keyed { return .grey }
        if palette { return .palette }
        if grey { return .greyAlpha }
        return keyed ? .rgb : .rgba
    }
}

/// The colours of a palette APNG, as frames add them (RGBA packed as the
/// little-endian words of the pixel buffer).
struct Palette {
    /// Index 0 is fully transparent black, for the unchanged pixels of
    /// frames blended OVER: rows of zeros, with the filter bytes, deflate
    /// best. A palette that does not `reserve` it has no transparent entry
    /// of its own (256 opaque colours, drawn with SOURCE only).
    private(set) var colors: [UInt32]
    private var indices: [UInt32: UInt8]
    let transparentIndex: UInt8?

    init(reserve: Bool = true) {
        colors = reserve ? [0] : []
        indices = reserve ? [0: 0] : [:]
        transparentIndex = reserve ? 0 : nil
    }

    /// True when the colours of `frame` in `r` fit with those already in,
    /// in a table of `capacity` entries.
    func canHold(_ frame: RGBAImage, _ r: PixelRect, width: Int, capacity: Int = 256) -> Bool {
        colors.count + newColors(frame, r, width: width, limit: capacity - colors.count) <= capacity
    }

    /// The colours of `frame` in `r` not in the palette yet, counted up
    /// to `limit` + 1.
    func newColors(_ frame: RGBAImage, _ r: PixelRect, width: Int, limit: Int) -> Int {
        var extra = Set<UInt32>()
        return frame.pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            var last: UInt32? = nil
            for y in r.y..<(r.y + r.h) {
                for i in (y * width + r.x)..<(y * width + r.x + r.w) {
                    let p = px[i]
                    if p == last || indices[p] != nil { continue }
                    last = p
                    extra.insert(p)
                    if extra.count > limit { return extra.count }
                }
            }
            return extra.count
        }
    }

    /// The smallest PNG bit depth (1, 2, 4, 8) whose table holds `count` entries.
    static func depth(for count: Int) -> Int {
        count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
    }

    mutating func add(_ frame: RGBAImage, _ r: PixelRect, width: Int) {
        frame.pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.h) {
                var last: UInt32? = nil
                for i in (y * width + r.x)..<(y * width + r.x + r.w) where px[i] != last {
                    last = px[i]
                    if indices[px[i]] == nil { insert(px[i]) }
                }
            }
        }
    }

    func index(of p: UInt32) -> UInt8 { indices[p]! }

    /// The same colours without the reserved transparent entry.
    func unreserved() -> Palette {
        var p = Palette(reserve: false)
        for c in colors.dropFirst(transparentIndex == nil ? 0 : 1) { p.insert(c) }
        return p
    }

    private mutating func insert(_ p: UInt32) {
        indices[p] = UInt8(colors.count)
        colors.append(p)
    }

    /// PLTE and tRNS bodies of `entries` entries each (at least the colours').
    func chunks(entries: Int) -> ([UInt8], [UInt8]) {
        var plte = [UInt8](repeating: 0, count: 3 * entries)
        var trns = [UInt8](repeating: 255, count: entries)
        for (i, c) in colors.enumerated() {
            plte[i * 3] = UInt8(c & 0xFF)
            plte[i * 3 + 1] = UInt8(c >> 8 & 0xFF)
            plte[i * 3 + 2] = UInt8(c >> 16 & 0xFF)
            trns[i] = UInt8(c >> 24)
        }
        return (plte, trns)
    }
}

extension RGBAImage {
    /// A copy with `r` cleared to transparent black, as APNG's BACKGROUND
    /// disposal leaves the canvas.
    func clearing(_ r: PixelRect) -> RGBAImage {
        var copy = self
        copy.pixels.withUnsafeMutableBytes { raw in
            for y in r.y..<(r.y + r.h) {
                let start = (y * width + r.x) * 4
                raw.baseAddress!.advanced(by: start).initializeMemory(as: UInt8.self, repeating: 0, count: r.w * 4)
            }
        }
        return copy
    }

    /// True when every pixel of `r` has alpha 255.
    func isOpaque(in r: PixelRect, width: Int) -> Bool {
        for y in r.y..<(r.y + r.h) {
            var i = (y * width + r.x) * 4 + 3
            for _ in 0..<r.w {
                if pixels[i] != 255 { return false }
                i += 4
            }
        }
        return true
    }
}

/// Big-endian fields for chunk bodies.
struct BigEndian {
    var bytes: [UInt8] = []
    mutating func u32(_ v: UInt32) { bytes += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
}

/// Frame durations as APNG delay fractions (numerator/denominator of a
/// second, each at most 65535): exact when a small denominator expresses
/// the duration (1/30 s as 1/30), else milliseconds with the rounding
/// carried forward so that the total does not drift.
struct DelayFractions {
    private var carryNs: Int64 = 0

    mutating func next(_ duration: Duration) -> (UInt16, UInt16) {
        let ns = duration.nanosecondsValue
        // An exact fraction with a small denominator (frame rates), within 1 µs.
        for den: Int64 in [1000, 100, 30, 60, 24, 25, 50, 120, 48, 15, 12, 10] {
            let num = (ns * den + 500_000_000) / 1_000_000_000
            if num <= 65535 && abs(num * 1_000_000_000 - ns * den) < den * 1000 { return (UInt16(num), UInt16(den)) }
        }
        // Milliseconds, carrying the remainder.
        let total = ns + carryNs
        let ms = min(max((total + 500_000) / 1_000_000, 0), 65535)
        carryNs = total - ms * 1_000_000
        return (UInt16(ms), 1000)
    }
}

/// One bit for each of the 2²⁴ RGB colours (2 MiB).
struct ColorBitmap {
    private var words = [UInt64](repeating: 0, count: 1 << 18)

    /// How many colours are marked.
    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Marks the colours of `frame` inside `r`, but for fully transparent
    /// pixels (they take the key).
    mutating func mark(_ frame: RGBAImage, _ r: PixelRect, width: Int) {
        frame.pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            words.withUnsafeMutableBufferPointer { w in
                for y in r.y..<(r.y + r.h) {
                    for i in (y * width + r.x)..<(y * width + r.x + r.w) where px[i] >> 24 != 0 {
                        let c = Int(px[i] & 0xFF_FFFF)
                        w[c >> 6] |= 1 << UInt64(c & 63)
                    }
                }
            }
        }
    }

    private func marked(_ c: UInt32) -> Bool { words[Int(c >> 6)] & (1 << UInt64(c & 63)) != 0 }

    /// A key a later frame is unlikely to show (each one that does has the
    /// frames so far written again): the unmarked grey level farthest from
    /// every marked one (Sketch's numbers.gif, grey: written again 4 times
    /// with the first unmarked level as the key, never with this one).
    func keyGrey() -> UInt32? {
        let free = (0..<256).filter { !marked(UInt32($0) * 0x01_0101) }
        let used = (0..<256).filter { marked(UInt32($0) * 0x01_0101) }
        guard !free.isEmpty else { return nil }
        let far = free.max { a, b in
            (used.map { abs($0 - a) }.min() ?? 256) < (used.map { abs($0 - b) }.min() ?? 256)
        }!
        return UInt32(far)
    }

    /// The RGB key (R | G << 8 | B << 16): the first unmarked colour, nil
    /// when every colour is marked. Near black, it deflates best beside
    /// dark backgrounds (a lone colour far from every marked one, as for
    /// grey, made terminalizer's recordings 7-13% larger).
    func keyColour() -> UInt32? {
        for (i, word) in words.enumerated() where word != ~0 {
            return UInt32(i << 6 + (~word).trailingZeroBitCount)
        }
        return nil
    }
}

extension RGBAImage {
    /// True when every pixel of `r` has R = G = B.
    func isGrey(in r: PixelRect, width: Int) -> Bool {
        pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.h) {
                for i in (y * width + r.x)..<(y * width + r.x + r.w) {
                    let p = px[i] & 0xFF_FFFF
                    if p != (p & 0xFF) * 0x01_0101 { return false }
                }
            }
            return true
        }
    }

    /// True when a pixel of `r` not fully transparent has the RGB colour
    /// `rgb` (R | G << 8 | B << 16).
    func contains(_ rgb: UInt32, in r: PixelRect, width: Int) -> Bool {
        pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.h) {
                for i in (y * width + r.x)..<(y * width + r.x + r.w) where px[i] & 0xFF_FFFF == rgb && px[i] >> 24 != 0 {
                    return true
                }
            }
            return false
        }
    }

    /// True when every pixel of `r` is opaque or fully transparent.
    func isBinaryAlpha(in r: PixelRect, width: Int) -> Bool {
        pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            for y in r.y..<(r.y + r.h) {
                for i in (y * width + r.x)..<(y * width + r.x + r.w) where px[i] >> 24 != 0 && px[i] >> 24 != 0xFF {
                    return false
                }
            }
            return true
        }
    }
}
