/// What a `Transcoder` wrote.
public struct TranscodeReport: Sendable {
    /// Frames written (identical neighbours may have been merged in the file).
    public var frames: Int
    /// What the output format could not hold and was changed.
    public var adjustments: [TranscodeAdjustment]
    /// What went wrong in the source after the frames that were written
    /// (a truncated or damaged file), nil when it was read whole.
    public var sourceError: AnimError?
    /// The encoded bytes, when the output was memory (or a size was fitted).
    public var data: [UInt8]?
    /// Of `Transcoder.write(fitting:)`: the setting chosen, nil when even
    /// the smallest does not fit (then nothing was written).
    public var setting: SizeSetting?
    /// Of `Transcoder.write(fitting:)`: each setting tried, in order.
    public var attempts: [SizeAttempt] = []
}
