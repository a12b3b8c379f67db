/// The GIF writer's colour quantiser, for other users of palettes (the
/// terminal's sixel backend): count the colours of some pixels, then get a
/// palette of at most N colours for them, and map colours to its entries.
///
/// Colours are keys `0xFFRRGGBB`; key 0 stands for a transparent pixel and
/// is not counted. When the pixels hold at most `exactLimit` distinct
/// colours and the palette may hold them all, the palette is exactly those
/// colours; otherwise it is a median cut refined by k-means (`Quantizer`),
/// in the weighted RGB space of `PaletteSearch` (3·ΔR² + 4·ΔG² + 2·ΔB²).
///
/// Reused from frame to frame (`reset()` clears only what was touched). Not
/// `Sendable`: one instance per thread.
public final class ColorQuantizer {
    private let histogram: ColorHistogram

    /// `exactLimit`: how many distinct colours are tracked exactly (1…1024).
    public init(exactLimit: Int = 256) {
        histogram = ColorHistogram(exactLimit: min(max(exactLimit, 1), 1024))
    }

    /// Forgets every colour counted.
    public func reset() { histogram.reset() }

    /// Counts the colours of `keys` (transparent keys, 0, are skipped).
    public func add(_ keys: UnsafeBufferPointer<UInt32>) { histogram.add(keys) }

    /// Pixels counted since the last `reset()`.
    public var pixelCount: Int { histogram.total }

    /// The distinct colours counted, in the order first seen, or nil once
    /// there were more than `exactLimit`.
    public var distinctColors: [UInt32]? { histogram.overflowed ? nil : histogram.distinct }

    /// At most `maxColors` (≥ 1) colours for the pixels counted: the exact
    /// colours when they fit, else median cut + `iterations` k-means
    /// passes. Empty when no pixel was counted.
    public func palette(maxColors: Int, iterations: Int = 4) -> QuantizedPalette {
        Quantizer.palette(histogram, maxColors: max(maxColors, 1), iterations: max(iterations, 0))
    }

    /// The mean squared error per channel (about; 0 when exact) of drawing
    /// the pixels counted with `matcher`'s colours: how well an existing
    /// palette serves, compared with a new palette's `meanSquaredError`.
    public func meanSquaredError(with matcher: PaletteMatcher) -> Double {
        guard histogram.total > 0 else { return 0 }
        return Quantizer.meanSquaredError(histogram.entries(), matcher.search)
    }
}
