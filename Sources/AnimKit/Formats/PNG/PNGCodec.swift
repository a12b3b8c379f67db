extension ImageCodec {
    /// PNG and APNG (told apart by `acTL` while indexing); an APNG writer
    /// that must widen its pixel format reads back what it wrote. `acTL`
    /// comes before the frames; PNG keeps every metadata, and has colour
    /// chunks of its own.
    static let png = ImageCodec(
        signatures: [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]], reads: [.png, .apng],
        index: { try APNGContainer.index($0, file: $1, limits: $2.limits) },
        // The frame's bytes twice: mapped, and copied into libpng's stream.
        decoding: { data, _ in (2 * data, nil) },
        profileIsColor: false,
        writing: Writing(
            output: .apng,
            writer: { try APNGWriter(sink: $0, width: $1, height: $2, options: $3, readBack: $4) },
            extensions: ["png", "apng"], maximumPlays: Int(Int32.max),  // PNG's four-byte integers
            // 16 bytes for each frame deflated at once (one a core, at most 4).
            encodingBytes: { 20 + 16 * max(1, min(System.activeProcessorCount, 4, $0)) },
            sizeSteps: { options in
                var s = options
                (s.lossy, s.lossless) = (0, true)
                return [s]
            },
            countsFramesFirst: true, clearsHiddenColors: true))
}
