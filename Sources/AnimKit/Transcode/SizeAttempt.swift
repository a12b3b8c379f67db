/// One setting of the size ladder tried by `Transcoder.write(fitting:)`.
public struct SizeAttempt: Equatable, Sendable {
    /// Its place on the ladder, 0-based.
    public var step: Int
    /// The setting.
    public var setting: SizeSetting
    /// The size of its output.
    public var bytes: Int
}
