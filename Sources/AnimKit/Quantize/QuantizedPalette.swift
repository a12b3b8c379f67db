/// A palette made by `ColorQuantizer` (or the GIF writer's `Quantizer`),
/// with its estimated error.
public struct QuantizedPalette: Equatable, Sendable {
    /// The colours, `0xFFRRGGBB`.
    public var colors: [UInt32]
    /// About the per-channel mean squared error of the pixels it was made
    /// for (0 when exact): the mean over them of the weighted squared
    /// distance, divided by the sum of the weights.
    public var meanSquaredError: Double
}
