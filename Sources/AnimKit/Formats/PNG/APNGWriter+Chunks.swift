extension APNGWriter {
    // MARK: compressing beside the next frame

    /// A frame waiting for its data; its `dispose` is settled by the next frame.
    struct Queued {
        let job: Pending<[UInt8]?>
        let rect: Rect
        let num: UInt16, den: UInt16, blend: UInt8, index: Int
        var dispose: UInt8 = 0
    }

    /// Starts deflating this frame, after writing the oldest queued one if
    /// as many as there are cores are in flight.
    func queue(_ pixels: [UInt8], _ r: Rect, num: UInt16, den: UInt16, blend: UInt8, index: Int) throws {
        if queued.count >= depth { try writeOldest() }
        let (level, search, channels) = (compression, options.quality >= 75, state.mode!.channels)
        let rowWidth = packedWidth(r.width)
        // zopfli: 15 iterations, as zopflipng; from effort 7 also while the
        // animation is small.
        state.rows += r.height * (rowWidth * channels + 1)
        let small = options.effort >= 7 && state.rows <= Self.smallAnimationRows
        let zopfli = options.effort >= 9 || small ? 15 : 0
        let job = WorkerPool.shared.submit {
            pixels.withUnsafeBytes {
                PNGBridge.deflate(
                    pixels: $0, width: rowWidth, height: r.height, channels: channels, level: level, search: search,
                    zopfli: zopfli)
            }
        }
        queued.append(Queued(job: job, rect: r, num: num, den: den, blend: blend, index: index))
    }

    /// Writes every queued frame.
    func writeQueued() throws {
        while !queued.isEmpty { try writeOldest() }
    }

    /// Waits for the oldest queued frame's data and writes its fcTL and data chunks.
    func writeOldest() throws {
        let q = queued.removeFirst()
        guard let zlib = q.job.get() else { throw deflateFailed(frame: q.index) }
        try control(q.rect, num: q.num, den: q.den, dispose: q.dispose, blend: q.blend)
        try data(zlib, fdAT: state.sequence > 1)
    }

    // MARK: chunks

    func header(_ mode: PixelMode) throws {
        state.mode = mode
        try sink.write(PNGChunk.signature)
        try chunk(
            .IHDR,
            PNGChunk.ihdr(
                width: width, height: height, colorType: mode.rawValue, depth: mode == .palette ? UInt8(state.depth) : 8))
        if !still {
            state.offsets.actl = sink.offset + 8
            try chunk(.acTL, actlBody(frames: options.frameCount ?? 0))
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

    /// `acTL`'s frame count and plays.
    func actlBody(frames: Int) -> [UInt8] { BigEndian.u32(UInt32(frames), UInt32(max(options.plays, 0))) }

    /// A still image announced up front (one frame on an output that
    /// cannot seek): a plain PNG, with no `acTL` or `fcTL`.
    var still: Bool { options.frameCount == 1 }

    func control(_ r: Rect, num: UInt16, den: UInt16, dispose: UInt8, blend: UInt8) throws {
        if still { return }
        let body =
            BigEndian.u32(state.sequence, UInt32(r.width), UInt32(r.height), UInt32(r.x), UInt32(r.y))
            + BigEndian.u16(num, den) + [dispose, blend]
        state.sequence += 1
        try chunk(.fcTL, body)
    }

    /// A frame's zlib stream as IDAT or fdAT chunks (of at most 1 MiB).
    func data(_ zlib: [UInt8], fdAT: Bool) throws {
        var start = 0
        repeat {
            let body = Array(zlib[start..<min(start + (1 << 20), zlib.count)])
            start += body.count
            if fdAT {
                let sequence = BigEndian.u32(state.sequence)
                state.sequence += 1
                try chunk(.fdAT, sequence + body)
            } else {
                try chunk(.IDAT, body)
            }
        } while start < zlib.count
    }

    func chunk(_ type: PNGChunkType, _ body: [UInt8]) throws {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 12)
        PNGChunk.append(type, body, to: &out)
        try sink.write(out)
    }
}
