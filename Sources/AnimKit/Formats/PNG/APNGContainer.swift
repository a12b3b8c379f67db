/// Builds the `ContainerIndex` of a PNG or APNG.
enum APNGContainer {
    static func index(_ store: ByteStore, file: String, limits: DecodingLimits) throws -> ContainerIndex {
        let parsed = try APNGParser(
            bytes: store.bytes, file: file, limits: limits,
            passed: { store.release(0..<$0) }
        ).parse()
        let h = parsed.header
        let canvas = Rect(x: 0, y: 0, width: h.width, height: h.height)
        var steps = parsed.frames.map {
            Step(rect: $0.rect, dispose: $0.dispose, blend: $0.blend, hasAlpha: h.hasAlpha)
        }
        Step.markKeyframes(&steps, canvas: canvas)
        try limits.checkDecodedBytes(steps, file: file)
        let frames = parsed.frames.enumerated().map { (i, f) in
            (steps: i..<(i + 1), delay: parsed.isAnimated ? f.delay : Duration.zero)
        }
        let decoder = APNGDecoder(store: store, file: file, header: h, frames: parsed.frames)
        let loop = parsed.isAnimated ? parsed.numPlays : nil
        return ContainerIndex(
            format: parsed.isAnimated ? .apng : .png, width: h.width, height: h.height,
            steps: steps, frames: frames, loopCount: loop, plays: loop == 0 ? .forever : .count(loop ?? 1),
            formula: .exact, error: parsed.error, decoder: decoder,
            // Truncated frames are already left out; a still PNG is whole at IEND only.
            settledFrames: parsed.error == nil || parsed.isAnimated ? frames.count : 0,
            metadata: parsed.metadata, warnings: parsed.warnings,
            color: parsed.color.color(icc: parsed.metadata.iccProfile))
    }
}
