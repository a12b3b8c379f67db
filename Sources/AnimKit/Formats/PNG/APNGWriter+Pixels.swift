extension APNGWriter {
    /// The rectangle `r` of `frame` in the current mode (palette indices,
    /// RGB or RGBA), palette indices packed at `depth` bits (default the
    /// file's); with `masking`, pixels equal to it are transparent.
    func pixels(_ frame: RGBAImage, _ r: Rect, masking prev: RGBAImage?, depth: Int? = nil) -> [UInt8] {
        let depth = depth ?? state.depth
        let mode = state.mode!
        let channels = mode.channels
        var out = [UInt8](repeating: 0, count: r.width * r.height * channels)
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
                for y in 0..<r.height {
                    let row = (r.y + y) * width + r.x
                    for x in 0..<r.width {
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
        return depth < 8 ? Self.pack(out, width: r.width, height: r.height, depth: depth) : out
    }

    /// The zlib stream of a rectangle's pixels in the current mode: rows
    /// filtered as libpng does (none for palettes, else adaptive; with
    /// `search` also whole-frame Sub, Up or Paeth when a quick deflate finds
    /// them smaller), deflated by libdeflate.
    func deflate(
        _ pixels: [UInt8], _ r: Rect, level: Int, search: Bool, index: Int, depth: Int? = nil
    ) throws -> [UInt8] {
        guard
            let zlib = pixels.withUnsafeBytes({
                PNGBridge.deflate(
                    pixels: $0, width: packedWidth(r.width, depth: depth), height: r.height, channels: state.mode!.channels,
                    level: level,
                    search: search)
            })
        else { throw deflateFailed(frame: index) }
        return zlib
    }

    func deflateFailed(frame: Int) -> AnimError {
        AnimError(file: sink.name, frame: frame, LibraryFailure(library: "libdeflate", message: "compressing the frame failed"))
    }

    /// The width to filter rows of `w` pixels as: `w`, or for a packed
    /// palette the bytes of a row (PNG's filters then work on bytes).
    func packedWidth(_ w: Int, depth: Int? = nil) -> Int {
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
    func changedAreOpaque(_ prev: RGBAImage, _ cur: RGBAImage, _ r: Rect) -> Bool {
        prev.pixels.withUnsafeBytes { pa in
            cur.pixels.withUnsafeBytes { pb in
                let wa = pa.bindMemory(to: UInt32.self)
                let wb = pb.bindMemory(to: UInt32.self)
                for y in r.y..<(r.y + r.height) {
                    for x in r.x..<(r.x + r.width) {
                        let i = y * width + x
                        if wa[i] != wb[i] && wb[i] >> 24 != 0xFF { return false }
                    }
                }
                return true
            }
        }
    }
}
