extension ImageCodec {
    /// WebP (RIFF … WEBP), still or animated.
    static let webp = ImageCodec(
        signatures: [Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8)], output: .webp,
        index: { try WebPContainer.index($0, file: $1, limits: $2.limits) },
        writer: { sink, width, height, options, _ in
            try WebPWriter(sink: sink, width: width, height: height, options: options)
        })
}
