extension APNGWriter {
    func finish() throws {
        try writeQueued()
        try chunk(.IEND, [])
        if let expected = options.frameCount, expected != state.frames, !sink.canPatch {
            throw AnimError(file: sink.name, PNGProblem.framesWritten(written: state.frames, announced: expected))
        }
        if sink.canPatch && !still { try patchCounts { try sink.patch($0, at: $1) } }
        try compactPalette()
        if state.frames == 1 && !still { try dropAnimationChunks() }
    }

    /// Rewrites a file of one frame as a plain PNG: the default image is
    /// that frame, so `acTL` and its `fcTL` go and nothing else changes.
    /// Left animated on an output that cannot be read back and rewound.
    func dropAnimationChunks() throws {
        guard let bytes = sink.readAll() else { return }
        var kept = Array(bytes.prefix(8))
        kept.reserveCapacity(bytes.count)
        let whole = bytes.withUnsafeBytes { raw in
            var walker = PNGChunkWalker(raw)
            while case .chunk(let c) = walker.next() {
                if c.type != .acTL && c.type != .fcTL { kept += bytes[c.offset..<c.end] }
            }
            return walker.offset == bytes.count
        }
        guard whole, sink.rewind() else { return }
        try sink.write(kept)
    }

    /// Rewrites a palette file with PLTE and tRNS cut to the colours used
    /// (room for the bit depth's entries was kept while frames came): a few hundred bytes, which
    /// matter for small files. Skipped above 64 MiB (the file is read back).
    func compactPalette() throws {
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
    func patchCounts(_ patch: ([UInt8], Int) throws -> Void) throws {
        let actl = actlBody(frames: state.frames)
        try patch(actl + PNGChunk.crcField(.acTL, actl), state.offsets.actl)
        if state.mode == .palette {
            let (plte, trns) = state.palette.chunks(entries: 1 << state.depth)
            try patch(plte + PNGChunk.crcField(.PLTE, plte), state.offsets.plte)
            try patch(trns + PNGChunk.crcField(.tRNS, trns), state.offsets.trns)
        }
    }

    // MARK: modes

    func fits(_ frame: RGBAImage, _ mode: PixelMode, _ rect: Rect) -> Bool {
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
    func startOver(wider frame: RGBAImage) throws {
        try writeQueued()
        guard var bytes = sink.readAll(), sink.canReadBack else {
            throw AnimError(file: sink.name, frame: state.frames, PNGProblem.cannotWiden)
        }
        // A complete file of the frames so far, to decode.
        try patchCounts { patch, at in bytes.replaceSubrange(at..<(at + patch.count), with: patch) }
        PNGChunk.append(.IEND, [], to: &bytes)
        let written = try readBack(bytes, sink.name)
        let durations = state.durations
        let all = Rect(x: 0, y: 0, width: width, height: height)
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
            throw AnimError(file: sink.name, IOFailure(operation: "rewind", errno: 0, message: "the output cannot be rewound"))
        }
        state = Stream(mode: nil)
        if mode == .palette && unreserved { state.palette = Palette(reserve: false) }
        try header(mode)
        for i in 0..<written.frameCount {
            let again = try written.frame(i)
            try write(again, duration: durations[i], index: i, choices: candidates(again))
        }
    }
}
