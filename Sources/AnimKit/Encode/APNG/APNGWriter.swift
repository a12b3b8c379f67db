/// Writes an APNG frame by frame: 8-bit RGBA, the first frame as the
/// default image (`IDAT`), each later one as the rectangle that changed
/// (`fdAT`), with the blend that compresses best, as APNG Assembler does.
///
/// Each frame's pixels are filtered and deflated by libpng (a PNG encoded
/// in memory, whose IDAT data becomes the frame's data). `acTL`'s frame
/// count is patched at `finish()`, or given up front for an output that
/// cannot seek. Memory: the previous canvas and one frame's rectangle.
final class APNGWriter: FrameWriter {
    let sink: OutputSink
    let width: Int, height: Int
    let options: EncodingOptions
    private var previous: RGBAImage?
    private var sequence: UInt32 = 0
    private var frames = 0
    private var actlOffset = 0
    private var delays = DelayFractions()
    private let compression: Int

    init(sink: OutputSink, width: Int, height: Int, options: EncodingOptions) throws {
        self.sink = sink
        self.width = width; self.height = height
        self.options = options
        compression = options.quality >= 50 ? 9 : max(1, options.quality / 6)
        try sink.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = BigEndian()
        ihdr.u32(UInt32(width)); ihdr.u32(UInt32(height))
        ihdr.bytes += [8, 6, 0, 0, 0]          // 8-bit RGBA, deflate, adaptive filters, no interlace
        try chunk("IHDR", ihdr.bytes)
        var actl = BigEndian()
        actl.u32(UInt32(options.frameCount ?? 0)); actl.u32(UInt32(max(options.plays, 0)))
        actlOffset = sink.offset + 8
        try chunk("acTL", actl.bytes)
    }

    func add(_ frame: RGBAImage, duration: Duration, index: Int) throws {
        if let frameCount = options.frameCount, frames >= frameCount, !sink.canPatch {
            throw AnimError.malformed(file: sink.name, frame: index, offset: nil,
                                      reason: "more frames than the \(frameCount) announced")
        }
        let (num, den) = delays.next(duration)
        guard let prev = previous else {
            // The default image is the first frame: the whole canvas.
            try control(x: 0, y: 0, w: width, h: height, num: num, den: den, blend: 0)
            try data(encode(frame.pixels, width, height, index: index), fdAT: false)
            previous = frame
            frames += 1
            return
        }
        let rect = changedRect(prev, frame) ?? (0, 0, 1, 1)
        let source = crop(frame, rect)
        var best = try encode(source, rect.w, rect.h, index: index)
        var blend: UInt8 = 0
        // OVER with unchanged pixels transparent, when every changed pixel
        // is opaque (so blending it over the old one gives it exactly).
        if let masked = overMasked(prev, frame, rect) {
            let candidate = try encode(masked, rect.w, rect.h, index: index)
            if candidate.count < best.count { best = candidate; blend = 1 }
        }
        try control(x: rect.x, y: rect.y, w: rect.w, h: rect.h, num: num, den: den, blend: blend)
        try data(best, fdAT: true)
        previous = frame
        frames += 1
    }

    func finish() throws {
        try chunk("IEND", [])
        if let expected = options.frameCount, expected != frames, !sink.canPatch {
            throw AnimError.malformed(file: sink.name, frame: nil, offset: nil,
                                      reason: "\(frames) frames written, \(expected) announced in acTL")
        }
        if sink.canPatch {
            var count = BigEndian()
            count.u32(UInt32(frames))
            try sink.patch(count.bytes, at: actlOffset)
            // The acTL CRC covers the count: write it again.
            var actl = BigEndian()
            actl.u32(UInt32(frames)); actl.u32(UInt32(max(options.plays, 0)))
            try sink.patch(crc("acTL", actl.bytes), at: actlOffset + 8)
        }
    }

    // MARK: chunks

    private func control(x: Int, y: Int, w: Int, h: Int, num: UInt16, den: UInt16, blend: UInt8) throws {
        var c = BigEndian()
        c.u32(sequence); sequence += 1
        c.u32(UInt32(w)); c.u32(UInt32(h)); c.u32(UInt32(x)); c.u32(UInt32(y))
        c.u16(num); c.u16(den)
        c.bytes += [0, blend]                 // dispose none: the canvas stays for the next diff
        try chunk("fcTL", c.bytes)
    }

    /// The zlib stream of `png`'s IDAT chunks, as IDAT or fdAT chunks.
    private func data(_ png: [UInt8], fdAT: Bool) throws {
        try png.withUnsafeBytes { raw in
            var walker = PNGChunkWalker(raw)
            while case .chunk(let c) = walker.next() {
                guard c.type == "IDAT" else { continue }
                let body = Array(raw[c.dataOffset..<(c.dataOffset + c.length)])
                if fdAT {
                    var d = BigEndian()
                    d.u32(sequence); sequence += 1
                    try chunk("fdAT", d.bytes + body)
                } else {
                    try chunk("IDAT", body)
                }
            }
        }
    }

    private func chunk(_ type: String, _ body: [UInt8]) throws {
        var head = BigEndian()
        head.u32(UInt32(body.count))
        try sink.write(head.bytes + Array(type.utf8) + body + crc(type, body))
    }

    private func crc(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let covered = Array(type.utf8) + body
        var c = BigEndian()
        c.u32(covered.withUnsafeBytes { PNGBridge.crc32($0) })
        return c.bytes
    }

    private func encode(_ pixels: [UInt8], _ w: Int, _ h: Int, index: Int) throws -> [UInt8] {
        guard let png = pixels.withUnsafeBytes({ PNGBridge.encode(rgba: $0, width: w, height: h, compression: compression) }) else {
            throw AnimError.library(file: sink.name, frame: index, library: "libpng", message: "encoding the frame failed")
        }
        return png
    }

    // MARK: frame differences

    /// The bounding box of the pixels that differ, or nil if none do.
    private func changedRect(_ a: RGBAImage, _ b: RGBAImage) -> (x: Int, y: Int, w: Int, h: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                let wa = pa.bindMemory(to: UInt32.self), wb = pb.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    let row = y * width
                    var first = -1, last = -1
                    for x in 0..<width where wa[row + x] != wb[row + x] { first = x; break }
                    guard first >= 0 else { continue }
                    for x in stride(from: width - 1, through: first, by: -1) where wa[row + x] != wb[row + x] { last = x; break }
                    minX = min(minX, first); maxX = max(maxX, last)
                    minY = min(minY, y); maxY = y
                }
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    private func crop(_ image: RGBAImage, _ r: (x: Int, y: Int, w: Int, h: Int)) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: r.w * r.h * 4)
        for y in 0..<r.h {
            let src = ((r.y + y) * width + r.x) * 4
            out.replaceSubrange((y * r.w * 4)..<((y + 1) * r.w * 4), with: image.pixels[src..<(src + r.w * 4)])
        }
        return out
    }

    /// The rectangle of `cur` with the pixels equal to `prev` made fully
    /// transparent, or nil when a changed pixel is not opaque.
    private func overMasked(_ prev: RGBAImage, _ cur: RGBAImage, _ r: (x: Int, y: Int, w: Int, h: Int)) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: r.w * r.h * 4)
        for y in 0..<r.h {
            for x in 0..<r.w {
                let i = ((r.y + y) * width + r.x + x) * 4, o = (y * r.w + x) * 4
                if prev.pixels[i] == cur.pixels[i] && prev.pixels[i + 1] == cur.pixels[i + 1]
                    && prev.pixels[i + 2] == cur.pixels[i + 2] && prev.pixels[i + 3] == cur.pixels[i + 3] { continue }
                guard cur.pixels[i + 3] == 255 else { return nil }
                out[o] = cur.pixels[i]; out[o + 1] = cur.pixels[i + 1]; out[o + 2] = cur.pixels[i + 2]; out[o + 3] = 255
            }
        }
        return out
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
        let ns = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
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
