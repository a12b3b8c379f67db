/// Maps the pixels of a frame's rectangle to palette indices, with the
/// chosen dithering.
///
/// Only changed pixels are mapped; unchanged ones get the transparent
/// index, so the decoder keeps what it already shows there and static
/// areas never shimmer. A pixel whose exact colour is in the palette takes
/// it and neither receives nor passes on diffused error, so flat areas of
/// palette colours stay clean and a frame of at most the palette's colours
/// is reproduced exactly whatever the dithering. Ordered dithering uses
/// canvas coordinates, so a pixel's threshold is the same in every frame.
struct GIFDither {
    let mode: EncodingOptions.Dither
    let palette: GIFPalette
    let search: PaletteSearch
    /// Ordered dithering's amplitude, in 0–255 levels.
    let spread: Int32

    /// An 8×8 Bayer matrix, 0–63.
    static let bayer: [Int32] = [
        0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
    ]

    init(mode: EncodingOptions.Dither, palette: GIFPalette) {
        self.mode = mode
        self.palette = palette
        search = PaletteSearch(palette.colors, cached: true)
        spread = mode == .ordered ? Self.orderedSpread(palette.colors) : 0
    }

    /// The amplitude for ordered dithering: about the typical distance
    /// between a palette colour and its nearest neighbour, so the pattern
    /// just bridges the gaps between palette colours.
    static func orderedSpread(_ colors: [UInt32]) -> Int32 {
        guard colors.count > 1 else { return 0 }
        var total = 0.0
        for (i, a) in colors.enumerated() {
            var best = Int32.max
            for (j, b) in colors.enumerated() where j != i {
                let dr = Int32((a >> 16) & 0xFF) - Int32((b >> 16) & 0xFF)
                let dg = Int32((a >> 8) & 0xFF) - Int32((b >> 8) & 0xFF)
                let db = Int32(a & 0xFF) - Int32(b & 0xFF)
                best = min(best, dr * dr + dg * dg + db * db)
            }
            total += Double(best).squareRoot() / 3.0.squareRoot()  // per channel
        }
        return Int32(min(max(total / Double(colors.count), 2), 48).rounded())
    }

    /// Fills `out` (rect.width × rect.height) with indices for `rect` of
    /// the canvas `keys`, comparing with `reference` (both `width` wide).
    func map(
        keys: UnsafeBufferPointer<UInt32>, reference: UnsafeBufferPointer<UInt32>, width: Int,
        rect: Rect, into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        let clear = UInt8(truncatingIfNeeded: palette.transparentIndex ?? 0)
        switch mode {
        case .floydSteinberg:
            diffuse(keys: keys, reference: reference, width: width, rect: rect, clear: clear, into: out)
        case .none, .ordered:
            var o = 0
            for y in rect.y..<(rect.y + rect.height) {
                for x in rect.x..<(rect.x + rect.width) {
                    let k = keys[y * width + x]
                    if k == reference[y * width + x] {
                        out[o] = clear
                    } else if let exact = palette.exactIndex(k) {
                        out[o] = UInt8(exact)
                    } else {
                        let bias = mode == .ordered ? ((2 * Self.bayer[(y & 7) << 3 | (x & 7)] - 63) * spread) / 128 : 0
                        out[o] = UInt8(
                            search.nearestCached(
                                Self.clamp(Int32((k >> 16) & 0xFF) + bias),
                                Self.clamp(Int32((k >> 8) & 0xFF) + bias),
                                Self.clamp(Int32(k & 0xFF) + bias)))
                    }
                    o += 1
                }
            }
        }
    }

    @inline(__always)
    static func clamp(_ v: Int32) -> Int32 { min(max(v, 0), 255) }

    /// Error (×16) added to a level, rounded to nearest.
    @inline(__always)
    private static func apply(_ level: UInt32, _ error: Int32) -> Int32 {
        clamp(Int32(level & 0xFF) + (error + (error >= 0 ? 8 : -8)) / 16)
    }

    /// Floyd–Steinberg, serpentine rows, errors kept ×16 in two row buffers
    /// with one guard entry each side.
    private func diffuse(
        keys: UnsafeBufferPointer<UInt32>, reference: UnsafeBufferPointer<UInt32>, width: Int,
        rect: Rect, clear: UInt8, into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        let w = rect.width
        var current = [Int32](repeating: 0, count: (w + 2) * 3)
        var next = current
        var hint = -1
        for row in 0..<rect.height {
            let y = rect.y + row
            let forward = row & 1 == 0
            for step in 0..<w {
                let col = forward ? step : w - 1 - step
                let i = y * width + rect.x + col
                let o = row * w + col
                let e = (col + 1) * 3
                let k = keys[i]
                if k == reference[i] {
                    out[o] = clear
                    continue
                }
                if let exact = palette.exactIndex(k) {
                    out[o] = UInt8(exact)
                    continue
                }
                let r = Self.apply(k >> 16, current[e])
                let g = Self.apply(k >> 8, current[e + 1])
                let b = Self.apply(k, current[e + 2])
                let index = search.nearestCached(r, g, b, hint: hint)
                hint = index
                out[o] = UInt8(index)
                let p = palette.colors[index]
                let ahead = forward ? e + 3 : e - 3
                let behind = forward ? e - 3 : e + 3
                for c in 0..<3 {
                    let err = (c == 0 ? r : c == 1 ? g : b) - Int32((p >> UInt32(16 - 8 * c)) & 0xFF)
                    current[ahead + c] += err * 7
                    next[behind + c] += err * 3
                    next[e + c] += err * 5
                    next[ahead + c] += err
                }
            }
            swap(&current, &next)
            for j in next.indices { next[j] = 0 }
        }
    }
}
