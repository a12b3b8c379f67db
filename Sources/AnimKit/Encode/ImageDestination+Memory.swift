extension ImageDestination {
    /// The most memory, in bytes, an `ImageDestination` holds while it
    /// encodes frames of `width`×`height`, estimated before anything is
    /// allocated: its canvases, candidates and libraries' buffers. Measured
    /// on frames of noise (the worst case), in bytes a canvas pixel: GIF
    /// 24; APNG 20, and 16 for each frame deflated at once (one a core, at
    /// most 4, at most `frames`); WebP 64 (libwebp's lossless encoder).
    /// Plus `outputBytes`, the caller's estimate of the file written, for
    /// what is kept until `finish()` (WebP's encoded frames; a GIF or APNG
    /// read back to be reordered or widened). The frames added are the
    /// caller's.
    public static func memoryFootprint(
        format: OutputFormat, width: Int, height: Int, frames: Int = .max, outputBytes: Int = 0
    ) -> Int {
        let perPixel = Formats.writing(format).encodingBytes(frames)
        let (pixels, overflow) = max(width, 1).multipliedReportingOverflow(by: max(height, 1))
        guard !overflow, pixels <= Int.max / 256 else { return Int.max / 2 }
        return pixels * perPixel + min(max(outputBytes, 0), Int.max / 4)
    }
}
