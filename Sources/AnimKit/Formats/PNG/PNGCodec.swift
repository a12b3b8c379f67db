extension ImageCodec {
    /// PNG and APNG (told apart by `acTL` while indexing); an APNG writer
    /// that must widen its pixel format reads back what it wrote.
    static let png = ImageCodec(
        signatures: [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]], output: .apng,
        index: { try APNGContainer.index($0, file: $1, limits: $2.limits) },
        writer: { try APNGWriter(sink: $0, width: $1, height: $2, options: $3, readBack: $4) })
}
