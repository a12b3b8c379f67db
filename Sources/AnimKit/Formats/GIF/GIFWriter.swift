/// Writes an animated GIF, frame by frame.
///
/// Each frame is compared with what the decoder will show (the reference
/// canvas, see `GIFFrameDiff`): only the rectangle of changed pixels is
/// written, and inside it unchanged pixels are transparent, which LZW
/// compresses to almost nothing and which keeps static areas exactly as
/// they were (no dither shimmer).
///
/// Palettes: the global colour table holds the colours of every frame when
/// they are known up front and fit (`EncodingOptions.GIF.Prescan`), or the
/// table given there for the frames that share it (frame 0 then has its
/// own when it does not fit), else the palette of frame 0 (its colours, or
/// median cut + k-means when it has more, `Quantizer`). Exact wins: a later frame uses the global table when
/// it holds all its changed colours; else, when those colours fit a table,
/// a local table of exactly them; only a frame with more colours than a
/// table holds is approximated, by the global table when it fits about as
/// well as frame 0 did, or a local palette when that is clearly better.
/// One entry of every palette that needs it is kept for transparency
/// (not in an opaque frame 0 of exactly 256 colours), except a global
/// table that it would double (2, 4, … 128 colours known up front, see
/// `EncodingOptions.GIF.Prescan`): a frame then names for transparency the
/// first entry it does not use, as gifsicle does. Once all frames are
/// written, `GIFReorder` reorders the global table so that the frames
/// drawn from it use its first entries.
///
/// Disposal: a frame is written one frame late, once the next is known.
/// Pixels it shows opaque that the next frame makes transparent cannot be
/// erased by a transparent index, so the frame is then disposed of to
/// background (cleared to transparent), its rectangle grown to cover them,
/// and the next frame redraws what it needs there. Otherwise frames are
/// left in place, or (from `effort` 3) restored to what was there before
/// them (disposal 3) when the next frame differs from that in a smaller
/// rectangle. Memory: the pending frame, the next one's keys and the
/// reference canvas, one `UInt32` a pixel each, plus one frame's indices
/// and compressed bytes. Pillow and ffmpeg decode the output to the same
/// pixels as `ImageSource` (for Pillow, see the transparency note in
/// `writePending`).
final class GIFWriter: FrameWriter {
    let width: Int, height: Int
    let options: EncodingOptions
    /// Palette entries allowed, 2–256, the transparent one included (as
    /// ffmpeg's palettegen counts), except that 2 means 2 colours.
    var maxColors: Int { min(max(options.maxColors, 2), 256) }
    /// k-means iterations, from `options.quality`.
    var iterations: Int { min(max(options.quality, 0), 100) / 10 }
    let encoder: GIFEncoder
    /// What the decoder shows (the reference canvas): each pixel's key, and
    /// whether the colour on screen is exactly it (it was drawn from a
    /// palette holding that colour, or is transparent).
    var screen: (keys: [UInt32], exact: [Bool])
    /// The frame waiting for the next one: its keys, and its index and duration.
    var pending = (keys: [UInt32](), frame: (index: Int, duration: Duration)?.none)
    var clock: GIFDelayClock
    var global: (dither: GIFDither, meanSquaredError: Double)?
    let histogram = ColorHistogram()
    var indices: [UInt8] = []
    /// The next frame's keys, for the choice of disposal; `loaded` while
    /// they are those of the frame being added.
    var next = (keys: [UInt32](), loaded: false)

    init(sink: OutputSink, width: Int, height: Int, options: EncodingOptions) throws {
        self.width = width
        self.height = height
        self.options = options
        screen = ([UInt32](repeating: 0, count: width * height), [Bool](repeating: true, count: width * height))
        encoder = GIFEncoder(sink: sink)
        clock = GIFDelayClock(stored: options.storedDelays)
    }

    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {
        if pending.frame != nil { try writePending(next: frame) }
        if next.loaded {  // `restoringPays` read this frame's keys already
            swap(&pending.keys, &next.keys)
            next.loaded = false
        } else {
            GIFFrameDiff.load(frame, into: &pending.keys)
        }
        pending.frame = (index, duration)
    }

    func finish() throws {
        if pending.frame != nil { try writePending(next: nil) }
        try encoder.close()
        if let global = encoder.global {
            _ = try GIFReorder(sink: encoder.sink, global: global, usage: encoder.usage).run()
        }
    }

    /// The NETSCAPE2.0 loop value for `plays`, or nil for no block: our
    /// decoder (and browsers) play a value N N+1 times, and play a file
    /// without the block once.
    static func loopValue(plays: Int) -> Int? {
        if plays <= 0 { return 0 }
        if plays == 1 { return nil }
        return min(plays - 1, 65535)
    }

    /// Encodes the pending frame, `next` (if any) deciding its disposal.
    func writePending(next: RGBAImage?) throws {
        guard let frame = pending.frame else { return }
        pending.frame = nil
        let changes = GIFFrameDiff.changes(pending.keys, reference: screen.keys, width: width, height: height)
        let cleared = next.map { GIFFrameDiff.cleared(pending.keys, next: $0) } ?? Rect(x: 0, y: 0, width: 0, height: 0)
        var disposal: GIFEncoder.Disposal = cleared.isEmpty ? .keep : .clearToTransparent
        if disposal == .keep, frame.index > 0, options.effort >= 3, let next, restoringPays(next) {
            disposal = .restorePrevious
        }
        var rect = changes.rect.union(cleared)
        if rect.isEmpty { rect = Rect(x: 0, y: 0, width: 1, height: 1) }
        // Frame 0 and frames disposed of to background always name a
        // transparent index, even unused: Pillow decodes a whole animation
        // without alpha when frame 0 has none, and clears a disposed frame
        // to its background colour (opaque) when the frame has none.
        countColors(in: rect)
        // ... except an opaque frame 0 of exactly 256 colours: a slot for
        // transparency would cost it a colour, so it has none (exact wins).
        let fullTable = !histogram.overflowed && histogram.distinct.count == 256
        // ... and a still (one frame) has no animation for Pillow to decode:
        // no transparent entry unless it shows transparency, and no GCE
        // (unless it loops: identical frames merged into one keep their
        // duration, wuffs' multiple-loop-counts.gif).
        let still = frame.index == 0 && next == nil && Self.loopValue(plays: options.plays) == nil
        // ... nor an animation known to be opaque everywhere.
        let opaque = options.prescan?.opaque ?? false
        var needsTransparency =
            rect.width * rect.height > changes.count || (frame.index == 0 && !fullTable && !still && !opaque)
            || disposal == .clearToTransparent
        // The changed colours fill a table, with no room for transparency.
        let fillsTable =
            options.exactColors && !histogram.overflowed && histogram.distinct.count > colorBudget(transparent: true)
            && histogram.distinct.count <= maxColors
        // Transparency that only Pillow needs (frame 0, or a frame cleared
        // when disposed of, with no unchanged pixel to skip) gives way then:
        // split into images, the frame would show half drawn for 100 ms in
        // browsers. (Pillow then clears to the background colour where
        // browsers clear to transparency.)
        if fillsTable && needsTransparency && rect.width * rect.height == changes.count { needsTransparency = false }
        // A frame that fills a table otherwise is drawn whole over its
        // rectangle when all the rectangle's colours fit one table (a
        // photograph's frame of 256 colours redrawn at its place) instead of
        // split into images.
        let whole =
            fillsTable && needsTransparency && frame.index > 0 && disposal != .clearToTransparent
            && countColors(inWhole: rect)
        if whole {
            needsTransparency = false
        } else if options.exactColors
            && (histogram.overflowed || histogram.distinct.count > colorBudget(transparent: needsTransparency)),
            try writeOverflow(rect)
        {
            countColors(in: rect)
            needsTransparency = true
            // Restoring would undo only the last image, not those before it.
            if disposal == .restorePrevious { disposal = .keep }
        }
        let (dither, isLocal) = choosePalette(needsTransparency: needsTransparency)
        let delay = clock.delay(for: frame.duration)
        writeHeader()
        indices.removeAll(keepingCapacity: true)
        indices.append(contentsOf: repeatElement(0, count: rect.width * rect.height))
        try pending.keys.withUnsafeBufferPointer { keys in
            try screen.keys.withUnsafeBufferPointer { ref in
                try indices.withUnsafeMutableBufferPointer { out in
                    if whole {
                        forEachPixel(in: rect) { i, o in out[o] = UInt8(dither.palette.exactIndex(keys[i])!) }
                    } else {
                        dither.map(keys: keys, reference: ref, width: width, rect: rect, into: out)
                    }
                    if needsTransparency { fillUnchanged(keys, ref, rect, dither.palette, out) }
                    if options.lossy > 0 {
                        GIFLossyLZW.apply(
                            out, colors: dither.palette.colors, transparent: dither.palette.transparentIndex,
                            bitsPerPixel: dither.palette.bitsPerPixel, loss: options.lossy,
                            shown: needsTransparency ? shownUnchanged(keys, ref, rect) : nil)
                    }
                    if disposal != .restorePrevious {
                        noteShown(keys, rect, dither.palette, out, cleared: disposal == .clearToTransparent)
                    }
                    try encoder.writeImage(
                        rect: rect, delay: delay, disposal: disposal,
                        transparentIndex: needsTransparency ? dither.palette.transparentIndex : nil,
                        palette: isLocal ? dither.palette : nil, indices: out,
                        control: needsTransparency || (!still && (delay != 0 || disposal != .keep)))
                }
            }
        }
        // Restored: the canvas goes back to the reference as it was.
        if disposal != .restorePrevious { updateReference(rect, cleared: disposal == .clearToTransparent) }
    }

    /// Disposal 3 (restore to previous) for the pending frame: when the next
    /// frame differs from what was shown before the pending one clearly
    /// less than from the pending frame itself (a sprite over
    /// a still background, drawn somewhere else each time) and needs no
    /// pixel cleared there. As gifsicle does not, and the input of Pillow's
    /// `dispose_prev.gif` does.
    func restoringPays(_ next: RGBAImage) -> Bool {
        GIFFrameDiff.load(next, into: &self.next.keys)
        self.next.loaded = true
        guard GIFFrameDiff.cleared(screen.keys, next: next).isEmpty else { return false }
        // What the next frame would send: its changed pixels, and a quarter
        // for each unchanged one inside its rectangle (transparent, cheap
        // but not free); restoring must save a fifth of that.
        func cost(_ c: (rect: Rect, count: Int)) -> Int { c.count + (c.rect.width * c.rect.height - c.count) / 4 }
        let kept = cost(GIFFrameDiff.changes(self.next.keys, reference: pending.keys, width: width, height: height))
        let restored = cost(GIFFrameDiff.changes(self.next.keys, reference: screen.keys, width: width, height: height))
        return restored * 5 < kept * 4
    }

    /// `EncodingOptions.exactColors`: the changed pixels of `rect` whose
    /// colours do not fit one table with the rest are drawn first, by
    /// images of their own with no delay (least used colours, 255 to a
    /// table plus a transparent entry, each image the bounding box of its
    /// pixels); the reference then shows them, and the frame's own image
    /// draws the 255 most used colours over the whole rectangle (so that
    /// its disposal covers the frame). False, nothing written, past 16
    /// tables: a photograph, left to the quantiser.
    func writeOverflow(_ rect: Rect) throws -> Bool {
        let perTable = 255
        var counts: [UInt32: Int] = [:]
        forEachPixel(in: rect) { i, _ in
            if pending.keys[i] != screen.keys[i] { counts[pending.keys[i], default: 0] += 1 }
        }
        guard counts.count > perTable, counts.count <= 16 * perTable else { return false }
        let ranked = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        if global == nil {
            let top = mostUsedFirst(Array(ranked.prefix(perTable)))
            global = (dither(top, transparent: true), 0)
        }
        writeHeader()
        for start in stride(from: perTable, to: ranked.count, by: perTable).reversed() {
            let colors = Array(ranked[start..<min(start + perTable, ranked.count)])
            let palette = GIFPalette(colors: colors, transparent: true)
            let clear = UInt8(palette.transparentIndex!)
            let box = FrameDiff.bounds(width: width, height: height) { i in
                pending.keys[i] != screen.keys[i] && palette.exactIndex(pending.keys[i]) != nil
            }.rect
            indices.removeAll(keepingCapacity: true)
            forEachPixel(in: box) { i, _ in
                if pending.keys[i] != screen.keys[i], let e = palette.exactIndex(pending.keys[i]) {
                    indices.append(UInt8(e))
                    screen.keys[i] = pending.keys[i]
                    screen.exact[i] = true
                } else {
                    indices.append(clear)
                }
            }
            try indices.withUnsafeMutableBufferPointer { out in
                try encoder.writeImage(
                    rect: box, delay: 0, disposal: .keep, transparentIndex: Int(clear),
                    palette: palette, indices: out)
            }
        }
        return true
    }

    /// Unchanged pixels are transparent in the frame; coding some of them
    /// with the colour they show instead (where the palette has it exactly
    /// and it is exactly what is shown) can make longer LZW strings. As
    /// gifsicle -O3 does, three ways are tried and the shortest LZW data
    /// kept: all transparent; unchanged pixels in a colour the changed ones
    /// use keep it (no new colour: the frame's indices stay few, see
    /// `GIFReorder`); and that, but each stretch of unchanged pixels
    /// holding two or more values made transparent whole.
    func fillUnchanged(
        _ keys: UnsafeBufferPointer<UInt32>, _ ref: UnsafeBufferPointer<UInt32>, _ rect: Rect,
        _ palette: GIFPalette, _ out: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let clear8 = palette.transparentIndex.map({ UInt8($0) }) else { return }
        var used = [Bool](repeating: false, count: 256)
        for i in out where i != clear8 { used[Int(i)] = true }
        var kept = Array(out)
        var changed = false
        forEachPixel(in: rect) { i, o in
            if out[o] == clear8, keys[i] == ref[i], ref[i] != 0, screen.exact[i], let e = palette.exactIndex(ref[i]), used[e] {
                kept[o] = UInt8(e)
                changed = true
            }
        }
        guard changed else { return }
        // Stretches of unchanged pixels with two or more values: transparent.
        var runs = kept
        var anyMixed = false
        var start = 0
        while start < runs.count {
            guard out[start] == clear8 else {
                start += 1
                continue
            }
            var end = start + 1
            var mixed = false
            while end < runs.count && out[end] == clear8 {
                mixed = mixed || kept[end] != kept[start]
                end += 1
            }
            if mixed {
                for k in start..<end { runs[k] = clear8 }
                anyMixed = true
            }
            start = end
        }
        let bits = palette.bitsPerPixel
        var best = GIFLZWEncoder.size(UnsafeBufferPointer(out), bitsPerPixel: bits)
        var choice: [UInt8]?
        for candidate in anyMixed ? [kept, runs] : [kept] {
            let size = candidate.withUnsafeBufferPointer { GIFLZWEncoder.size($0, bitsPerPixel: bits) }
            if size < best {
                best = size
                choice = candidate
            }
        }
        if let choice { for k in 0..<choice.count { out[k] = choice[k] } }
    }

    /// For `GIFLossyLZW`: per pixel of `rect` that the frame leaves as it
    /// is, the colour it stands for (the screen may show a near one), else
    /// 0. A colour drawn there instead is measured against that.
    func shownUnchanged(_ keys: UnsafeBufferPointer<UInt32>, _ ref: UnsafeBufferPointer<UInt32>, _ rect: Rect)
        -> [UInt32]
    {
        var shown = [UInt32](repeating: 0, count: rect.width * rect.height)
        forEachPixel(in: rect) { i, o in if keys[i] == ref[i] && ref[i] != 0 { shown[o] = ref[i] } }
        return shown
    }

    /// Records which pixels of `rect` the frame shows exactly.
    func noteShown(
        _ keys: UnsafeBufferPointer<UInt32>, _ rect: Rect, _ palette: GIFPalette,
        _ out: UnsafeMutableBufferPointer<UInt8>, cleared: Bool
    ) {
        let clear = palette.transparentIndex
        forEachPixel(in: rect) { i, o in
            if cleared {
                screen.exact[i] = true  // disposed of: transparent
            } else if Int(out[o]) != clear {
                screen.exact[i] = palette.exactIndex(keys[i]) == Int(out[o])
            }
        }
    }

    /// Calls `body` for each pixel of `rect`, row by row, with its index in
    /// the canvas and in the rectangle.
    @inline(__always)
    func forEachPixel(in rect: Rect, _ body: (_ canvas: Int, _ inRect: Int) -> Void) {
        var o = 0
        for y in rect.y..<(rect.y + rect.height) {
            for i in (y * width + rect.x)..<(y * width + rect.x + rect.width) {
                body(i, o)
                o += 1
            }
        }
    }
}
