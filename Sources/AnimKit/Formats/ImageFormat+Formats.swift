extension ImageFormat {
    /// The format this one is written as (PNG and APNG: APNG), nil for a
    /// format only read.
    public var outputFormat: OutputFormat? { Formats.codec(of: self).output }
}
