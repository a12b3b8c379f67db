extension ImageCodec {
    /// GIF87a and GIF89a; before the first frame is written, the global
    /// colour table is chosen from every frame (`GlobalTableChoice`), unless
    /// one is given.
    static let gif = ImageCodec(
        signatures: [Array("GIF87a".utf8), Array("GIF89a".utf8)], output: .gif,
        index: { store, file, options in
            try GIFContainer.index(
                store, file: file, limits: options.limits, merging: options.mergesZeroDelayImages,
                growing: options.growsCanvasToFirstImage)
        },
        writer: { sink, width, height, options, _ in
            try GIFWriter(sink: sink, width: width, height: height, options: options)
        },
        prepare: { options, count, frame in
            guard options.prescan == nil else { return }
            options.prescan = try? GIFGlobalTable.of(count: count, limit: max(options.maxColors - 1, 2), frame: frame)
        })
}
