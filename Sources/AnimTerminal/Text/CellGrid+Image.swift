import AnimKit

extension CellGrid {
    /// The cells showing `image`, one sub-pixel of `symbols` per pixel (past
    /// the image's edge: the background). Each cell gets the pattern and two
    /// colours with the least squared error over its sub-pixels (`CellFitter`).
    /// Sub-pixels that show the terminal's default (transparent over
    /// `Background.none`) are the background, the others the foreground in
    /// their mean colour. In 256 colours every sub-pixel is mapped to the
    /// palette (`PaletteDither`) before the fit and the two colours after it,
    /// so a cell whose sub-pixels map to one colour is that colour.
    public init(image: RGBAImage, background: Background, symbols: TextSymbols, mode: ColorMode, dither: PaletteDither) {
        let (ax, ay) = (symbols.across, symbols.down)
        self.init(columns: (image.width + ax - 1) / ax, rows: (image.height + ay - 1) / ay, symbols: symbols)
        let sampler = Sampler(
            width: image.width, height: image.height, symbols: symbols, background: background,
            palette: mode == .palette256, dither: dither)
        let columns = self.columns
        let rows = self.rows
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 24) { scratch in
            image.pixels.withUnsafeBufferPointer { px in
                cells.withUnsafeMutableBufferPointer { out in
                    for row in 0..<rows {
                        for column in 0..<columns {
                            out[row * columns + column] = sampler.cell(px, column, row, scratch.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// Reads one cell's sub-pixels and fits them.
    private struct Sampler {
        let width: Int, height: Int
        let symbols: TextSymbols
        let background: Background
        let palette: Bool, dither: PaletteDither

        @inline(__always)
        func cell(_ px: UnsafeBufferPointer<UInt8>, _ column: Int, _ row: Int, _ s: UnsafeMutablePointer<Int32>) -> Cell {
            // Two columns or one: sub-pixel i is at (i & 1, i >> 1) or (0, i).
            let two = symbols.across == 2
            let n = symbols.count
            let x0 = two ? column * 2 : column
            let y0 = row * symbols.down
            var transparent: UInt8 = 0
            for i in 0..<n {
                let x = two ? x0 + i & 1 : x0
                let y = two ? y0 + i >> 1 : y0 + i
                let o = (y * width + x) * 4
                let inside = x < width && y < height
                let (r, g, b, a) = inside ? (px[o], px[o + 1], px[o + 2], px[o + 3]) : (0, 0, 0, 0)
                // Opaque: its own colour (`compose` returns it too).
                guard case .rgb(let r, let g, let b) = background.compose(r, g, b, a, x: x, y: y) else {
                    transparent |= 1 << i
                    continue
                }
                store(r, g, b, x: x, y: y, s + 3 * i)
            }
            if transparent != 0 { return opaqueOverDefault(transparent, s) }
            var (mask, fg, bg) = CellFitter.fit(s, count: n)
            if palette {
                fg = XtermPalette.shown(fg, mode: .palette256)
                bg = mask == 0 ? fg : XtermPalette.shown(bg, mode: .palette256)
            }
            return symbols.canonical(Cell(mask: mask, fg: fg, bg: bg))
        }

        /// A sub-pixel's colour, mapped to the palette when in 256 colours.
        @inline(__always)
        func store(_ r: UInt8, _ g: UInt8, _ b: UInt8, x: Int, y: Int, _ s: UnsafeMutablePointer<Int32>) {
            let (pr, pg, pb) = palette ? dither.color(r, g, b, x: x, y: y) : (r, g, b)
            s[0] = Int32(pr)
            s[1] = Int32(pg)
            s[2] = Int32(pb)
        }

        /// The cell when some sub-pixels show the default.
        func opaqueOverDefault(_ transparent: UInt8, _ s: UnsafeMutablePointer<Int32>) -> Cell {
            let opaque = ~transparent & symbols.fullMask
            guard opaque != 0 else { return .solid(.terminalDefault) }
            var r: Int32 = 0
            var g: Int32 = 0
            var b: Int32 = 0
            for i in 0..<symbols.count where opaque >> i & 1 != 0 {
                r += s[3 * i]
                g += s[3 * i + 1]
                b += s[3 * i + 2]
            }
            let k = Int32(opaque.nonzeroBitCount)
            let h = k / 2
            var fg = TerminalColor.rgb(UInt8((r + h) / k), UInt8((g + h) / k), UInt8((b + h) / k))
            if palette { fg = XtermPalette.shown(fg, mode: .palette256) }
            return Cell(mask: opaque, fg: fg, bg: .terminalDefault)
        }
    }
}
