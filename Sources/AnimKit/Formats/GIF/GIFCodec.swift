extension ImageCodec {
    /// GIF87a and GIF89a; before the first frame is written, the global
    /// colour table is chosen from every frame (`GlobalTableChoice`), unless
    /// one is given. GIF to GIF keeps the images and delays as stored.
    static let gif = ImageCodec(
        signatures: [Array("GIF87a".utf8), Array("GIF89a".utf8)], reads: [.gif],
        index: { store, file, options in
            try GIFContainer.index(
                store, file: file, limits: options.limits, merging: options.mergesZeroDelayImages,
                growing: options.growsCanvasToFirstImage)
        },
        decoding: { data, pixels in (data + pixels / 4, pixels / 4) },  // a step's indices
        writing: Writing(
            output: .gif,
            writer: { sink, width, height, options, _ in
                try GIFWriter(sink: sink, width: width, height: height, options: options)
            },
            extensions: ["gif"], maximumPlays: 65536,  // its loop value is plays − 1
            lost: { $0.exif.map { ["EXIF (\($0.count) bytes): GIF has no EXIF block"] } ?? [] },
            encodingBytes: { _ in 24 },
            sizeSteps: { options in
                var s = options
                s.lossless = true
                var out = [s]
                for v in [20, 40, 80, 120, 200] where v > s.lossy {
                    s.lossy = v
                    out.append(s)
                }
                for v in [128, 64, 32, 16] where v < s.maxColors {
                    s.maxColors = v
                    out.append(s)
                }
                return out
            },
            rewritesAsStored: true,
            prepare: { options, count, frame in
                guard options.prescan == nil else { return }
                options.prescan = try? GIFGlobalTable.of(count: count, limit: max(options.maxColors - 1, 2), frame: frame)
            },
            sameFormat: { options, storedDelays in
                if options.maxColors >= 256 && options.lossy == 0 { options.exactColors = true }
                if storedDelays { options.storedDelays = true }
            }))
}
