/// Builds the `ContainerIndex` of a GIF: parse, group images into frames,
/// check limits, and hand the images to `GIFDecoder`.
enum GIFContainer {
    /// Before the trailer, a frame is final when its images are complete and
    /// its last one has a delay (later images cannot join it).
    /// Unmerged, an image is a frame as soon as it is complete.
    static func settled(_ groups: [Range<Int>], _ images: [GIFImageRecord], merging: Bool) -> Int {
        var n = 0
        for g in groups {
            guard let last = g.last, images[g].allSatisfy(\.complete), images[last].delay > 0 || !merging else { break }
            n += 1
        }
        return n
    }

    /// `merging`: `DecodingOptions.mergesZeroDelayImages`; `growing`:
    /// `DecodingOptions.growsCanvasToFirstImage`.
    static func index(
        _ store: ByteStore, file: String, limits: DecodingLimits, merging: Bool, growing: Bool
    ) throws -> ContainerIndex {
        var parsed = try GIFParser(
            bytes: store.bytes, file: file, limits: limits,
            passed: { store.release(0..<$0) }
        ).parse()
        if growing, let first = parsed.images.first {
            // Chromium's rule (wuffs' frame-out-of-bounds.gif: a 2×2 screen
            // whose first image spans (1,0)-(4,1) is a 4×2 canvas; gif-suite
            // image-outside-bg 2×2 -> 4×4): the canvas is the union of the
            // screen and the first image; later images are clipped to it.
            let w = max(parsed.width, first.rect.x + first.rect.width)
            let h = max(parsed.height, first.rect.y + first.rect.height)
            if w != parsed.width || h != parsed.height {
                try limits.checkCanvas(width: w, height: h, file: file)
                (parsed.width, parsed.height) = (w, h)
            }
        }
        let canvas = Rect(x: 0, y: 0, width: parsed.width, height: parsed.height)
        var steps = parsed.images.map { image in
            var step = Step(
                rect: image.rect.intersection(canvas), dispose: image.dispose, blend: .over,
                hasAlpha: image.transparentIndex != nil)
            step.isComplete = image.complete
            return step
        }
        Step.markKeyframes(&steps, canvas: canvas)
        try limits.checkDecodedBytes(steps, file: file)
        let groups = GIFFrameGrouping.group(parsed, merging: merging)
        var frames: [(steps: Range<Int>, delay: Duration)] = groups.map { range in
            (range, .milliseconds(parsed.images[range.upperBound - 1].delay * 10))
        }
        if frames.isEmpty {
            // A GIF without any image shows its (transparent) screen.
            frames = [(0..<0, .zero)]
        }
        // Without a loop block a GIF plays once, a GIF87a slideshow too
        // (gif-suite `gif87a-animation`, whose "loop-count = infinite" the
        // browsers do not follow: Chromium 156's ImageDecoder gives
        // repetitionCount 0; `GIFConformanceTests`).
        // A loop value of N: N repetitions after the first play.
        let plays: Plays = parsed.loopCount.map { $0 == 0 ? .forever : .count($0 + 1) } ?? .count(1)
        let decoder = GIFDecoder(store: store, images: parsed.images, steps: steps)
        return ContainerIndex(
            format: .gif, width: parsed.width, height: parsed.height, steps: steps,
            frames: frames, loopCount: parsed.loopCount, plays: plays,
            formula: .exact, error: parsed.error, decoder: decoder,
            settledFrames: parsed.error == nil ? frames.count : settled(groups, parsed.images, merging: merging),
            metadata: parsed.metadata)
    }
}
