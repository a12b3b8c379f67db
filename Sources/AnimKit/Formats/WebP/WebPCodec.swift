extension ImageCodec {
    /// WebP (RIFF … WEBP), still or animated.
    static let webp = ImageCodec(
        signatures: [Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8)], reads: [.webp],
        index: { try WebPContainer.index($0, file: $1, limits: $2.limits) },
        decoding: { data, pixels in (data + pixels, nil) },  // libwebp's ARGB image
        writing: Writing(
            output: .webp,
            writer: { sink, width, height, options, _ in
                try WebPWriter(sink: sink, width: width, height: height, options: options)
            },
            extensions: ["webp"], maximumPlays: 65535,
            lost: { m in
                m.text.isEmpty ? [] : ["\(m.text.count) text entr\(m.text.count == 1 ? "y" : "ies"): WebP has no text chunk"]
            },
            encodingBytes: { _ in 64 },  // libwebp's lossless encoder
            sizeSteps: { options in
                var s = options
                s.lossy = 0
                var out = [s]
                if s.lossless {  // lossless first becomes lossy at 90
                    (s.lossless, s.quality) = (false, 90)
                    out.append(s)
                }
                for v in [60, 45, 30, 15, 5] where v < s.quality {
                    s.quality = v
                    out.append(s)
                }
                return out
            }))
}
