extension ContainerIndex {
    /// Sets up the conversion to sRGB of what `color` says is in another
    /// colour space; a profile that cannot be used becomes a warning.
    ///
    /// Returns what the pixels are converted from, and the transform the
    /// cursor applies to each frame once composited, as Chromium does
    /// (`ConvertedCanvas`); nil for GIF, whose colour tables are converted
    /// instead (with 1-bit alpha, the same frames). Chromium 156 does not
    /// convert animated WebP and GIF profiles at all (a still WebP's it
    /// does; `check.py` with `COLOR=1` on `p3.webp` and `p3.gif`): anim
    /// converts them, as the files ask.
    mutating func convertToSRGB() -> (source: ColorConversion?, transform: ColorTransform?) {
        let (transform, problem) = ColorTransform.toSRGB(from: color)
        if let problem { summary.warnings.append(problem) }
        guard let transform else { return (nil, nil) }
        if let converting = decoder.convertingColorTables(transform) {
            decoder = converting
            return (transform.source, nil)
        }
        return (transform.source, transform)
    }
}
