extension GIFWriter {
    /// The global table with the colours frame 0 uses most first. (On an
    /// output that can be read back, `GIFReorder` orders it again once all
    /// frames are known.)
    func mostUsedFirst(_ colors: [UInt32]) -> [UInt32] {
        let palette = GIFPalette(colors: colors, transparent: false)
        var counts = [Int](repeating: 0, count: colors.count)
        pending.keys.withUnsafeBufferPointer { keys in
            for k in keys where k != 0 { if let i = palette.exactIndex(k) { counts[i] += 1 } }
        }
        return colors.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }.map { colors[$0] }
    }

    func writeHeader() {
        guard encoder.global == nil, let global else { return }
        encoder.writeScreen(width: width, height: height, palette: global.dither.palette)
        if let loops = Self.loopValue(plays: options.plays) { encoder.writeLoop(loops) }
        encoder.writeMetadata(options.metadata)
    }

    /// Fills the histogram with the changed pixels of `rect`.
    func countColors(in rect: Rect) {
        histogram.reset()
        pending.keys.withUnsafeBufferPointer { keys in
            screen.keys.withUnsafeBufferPointer { ref in
                histogram.addChanged(keys, reference: ref, width: width, rect: rect)
            }
        }
    }

    /// Fills the histogram with every pixel of `rect`, when they are all
    /// opaque and their colours fit a table; else leaves it with the changed
    /// pixels and returns false.
    func countColors(inWhole rect: Rect) -> Bool {
        var keys: [UInt32] = []
        keys.reserveCapacity(rect.width * rect.height)
        for y in rect.y..<(rect.y + rect.height) {
            keys += pending.keys[(y * width + rect.x)..<(y * width + rect.x + rect.width)]
        }
        guard !keys.contains(0) else { return false }
        histogram.reset()
        keys.withUnsafeBufferPointer { histogram.add($0) }
        if !histogram.overflowed && histogram.distinct.count <= maxColors { return true }
        countColors(in: rect)
        return false
    }

    /// After the frame: the reference shows its pixels in `rect`, or
    /// transparency there when it is disposed of to background.
    func updateReference(_ rect: Rect, cleared: Bool) {
        pending.keys.withUnsafeBufferPointer { keys in
            screen.keys.withUnsafeMutableBufferPointer { ref in
                forEachPixel(in: rect) { i, _ in ref[i] = cleared ? 0 : keys[i] }
            }
        }
    }

    /// Opaque colours a palette may hold: one entry goes to transparency
    /// when needed, but 2 colours are always allowed (then 3 entries).
    func colorBudget(transparent: Bool) -> Int {
        transparent ? max(maxColors - 1, 2) : maxColors
    }

    /// The palette for the pixels in the histogram: the global one, made
    /// from frame 0, when it serves (see the type's notes); else a local one.
    func choosePalette(needsTransparency: Bool) -> (GIFDither, isLocal: Bool) {
        guard let global else {
            let prescan = options.prescan
            if let known = prescan?.colors, !known.isEmpty,
                known.count <= colorBudget(transparent: prescan?.transparentEntry ?? true),
                !histogram.overflowed, histogram.distinct.count <= 256
            {
                // The colours of every frame, known up front: one table for
                // all; or the table later frames share, which frame 0's
                // colours do not fit: frame 0 then gets a local table.
                let ordered = Set(known).isSuperset(of: histogram.distinct) ? mostUsedFirst(known) : known
                self.global = (dither(ordered, transparent: prescan?.transparentEntry ?? true), 0)
                return choosePalette(needsTransparency: needsTransparency)
            }
            let result = Quantizer.palette(
                histogram, maxColors: colorBudget(transparent: needsTransparency), iterations: iterations)
            // A first frame with no opaque pixel still needs a colour in the
            // table (and the search one to search): opaque black.
            let ordered = result.colors.isEmpty ? [0xFF00_0000] : mostUsedFirst(result.colors)
            self.global = (dither(ordered, transparent: needsTransparency), result.meanSquaredError)
            return (self.global!.dither, false)
        }
        let globalServes = !needsTransparency || global.dither.palette.transparentIndex != nil
        // (The global table always holds a colour: see above.)
        if histogram.total == 0 && globalServes { return (global.dither, false) }
        if globalServes && !histogram.overflowed && global.dither.palette.containsAll(histogram.distinct) {
            return (global.dither, false)
        }
        // A global table without a transparent entry that holds the changed
        // colours lends the frame the first entry it does not use (a colour
        // or the padding past them) for transparency.
        if !globalServes && !histogram.overflowed && global.dither.palette.containsAll(histogram.distinct) {
            let table = global.dither.palette
            var used = [Bool](repeating: false, count: table.tableSize)
            for c in histogram.distinct { used[table.exactIndex(c)!] = true }
            if let free = used.firstIndex(of: false) {
                return (GIFDither(mode: options.dither, palette: GIFPalette(colors: table.colors, transparentAt: free)), false)
            }
        }
        // Exact whenever the changed pixels' colours fit a table: a local
        // one of exactly them, rather than the global one approximating.
        if !histogram.overflowed && histogram.distinct.count <= colorBudget(transparent: needsTransparency) {
            let colors = histogram.distinct.isEmpty ? [0xFF00_0000] : histogram.distinct
            return (dither(colors, transparent: needsTransparency), true)
        }
        if !globalServes {
            let result = Quantizer.palette(histogram, maxColors: colorBudget(transparent: true), iterations: iterations)
            return (dither(result.colors, transparent: true), true)
        }
        let globalError = Quantizer.meanSquaredError(histogram.entries(), global.dither.search)
        if globalError <= global.meanSquaredError * 1.25 + 1 { return (global.dither, false) }
        let result = Quantizer.palette(histogram, maxColors: colorBudget(transparent: needsTransparency), iterations: iterations)
        guard result.meanSquaredError < globalError * 0.8 else { return (global.dither, false) }
        return (dither(result.colors, transparent: needsTransparency), true)
    }

    /// A palette of `colors` (and a transparent entry, if asked) with the chosen dithering.
    func dither(_ colors: [UInt32], transparent: Bool) -> GIFDither {
        GIFDither(mode: options.dither, palette: GIFPalette(colors: colors, transparent: transparent))
    }
}
