/// A palette made by `ColorQuantizer`, with its estimated error.
public struct QuantizedPalette: Equatable, Sendable {
    /// The colours, `0xFFRRGGBB`.
    public var colors: [UInt32]
    /// About the per-channel mean squared error of the pixels it was made
    /// for (0 when exact).
    public var meanSquaredError: Double
}
