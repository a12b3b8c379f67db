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
        // animation is small, where it costs under half a second in all.
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
        guard let zlib = q.job.get() else {
            throw AnimError(
                file: sink.name, frame: q.index, LibraryFailure(library: "libdeflate", message: "compressing the frame failed"))
        }
        try control(q.rect, num: q.num, den: q.den, dispose: q.dispose, blend: q.blend)
        try data(zlib, fdAT: state.sequence > 1)
    }

    // MARK: chunks

    func header(_ mode: PixelMode) throws {
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
    var still: Bool { options.frameCount == 1 }

    func control(_ r: Rect, num: UInt16, den: UInt16, dispose: UInt8, blend: UInt8) throws {
        if still { return }
        var c = BigEndian()
        c.u32(state.sequence)
        state.sequence += 1
        c.u32(UInt32(r.width))
        c.u32(UInt32(r.height))
        c.u32(UInt32(r.x))
        c.u32(UInt32(r.y))
        c.u16(num)
        c.u16(den)
        c.bytes += [dispose, blend]
        try chunk(.fcTL, c.bytes)
    }

    /// A frame's zlib stream as IDAT or fdAT chunks (of at most 1 MiB).
    func data(_ zlib: [UInt8], fdAT: Bool) throws {
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

    func chunk(_ type: PNGChunkType, _ body: [UInt8]) throws {
        try sink.write(PNGChunk.bytes(type, body))
    }
}
