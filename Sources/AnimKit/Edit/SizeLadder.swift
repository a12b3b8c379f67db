/// The settings a size target steps through (`Transcoder.write(fitting:)`),
/// each giving up more than the one before, in this documented order:
///
/// 1. quality: GIF lossy LZW 20, 40, 80, 120, 200; WebP lossy quality 60,
///    45, 30, 15, 5 (lossless WebP first becomes lossy at 90); only the
///    steps beyond the settings given;
/// 2. colours (GIF): 128, 64, 32, 16 colours a palette;
/// 3. frame rate: two thirds, then half of the play's mean rate (frames
///    resampled, `EditTimeline.resampled`);
/// 4. scale: 0.9, 0.8, 0.7, 0.6, 0.5, 0.42, 0.35, 0.3, 0.25, 0.2, 0.16,
///    0.125 of the size (about 20% fewer pixels a step).
///
/// Each step keeps the strongest setting of the stages before it. APNG has
/// no lossy setting in anim: its ladder is frame rate and scale. Stages 1
/// and 2 are each format's own (`ImageCodec.sizeSteps`, in its folder).
public struct SizeSetting: Equatable, Sendable, CustomStringConvertible {
    /// GIF lossy LZW (0: off).
    public var lossy: Int
    /// WebP: lossless frames.
    public var lossless: Bool
    /// WebP lossy quality.
    public var quality: Int
    /// GIF colours a palette.
    public var maxColors: Int
    /// The mean frame rate kept: 1 all, 0.5 half.
    public var rate: Double
    /// Both sides times this.
    public var scale: Double

    /// The setting in words: "lossy 80, 64 colours, frame rate ×0.67, scale
    /// 0.9"; "as given" for the options as they were.
    public var description: String {
        var parts: [String] = []
        if lossy > 0 { parts.append("lossy \(lossy)") }
        if !lossless { parts.append("quality \(quality)") }
        if maxColors < 256 { parts.append("\(maxColors) colours") }
        if rate < 1 { parts.append("frame rate ×\((rate * 100).rounded() / 100)") }
        if scale < 1 { parts.append("scale \(scale)") }
        return parts.isEmpty ? "as given" : parts.joined(separator: ", ")
    }

    /// The options given, with this step's settings.
    public func applied(to options: EncodingOptions) -> EncodingOptions {
        var o = options
        (o.lossy, o.lossless, o.quality, o.maxColors) = (lossy, lossless, quality, maxColors)
        return o
    }
}

/// The ladder of `SizeSetting`s and the search along it.
public enum SizeLadder {
    /// The settings from those given (first) to the smallest (last).
    public static func settings(format: OutputFormat, options: EncodingOptions) -> [SizeSetting] {
        var out = Formats.writing(format).sizeSteps(options).map {
            SizeSetting(lossy: $0.lossy, lossless: $0.lossless, quality: $0.quality, maxColors: $0.maxColors, rate: 1, scale: 1)
        }
        var s = out[out.count - 1]
        func push(_ change: (inout SizeSetting) -> Void) {
            change(&s)
            out.append(s)
        }
        for v in [2.0 / 3, 0.5] { push { $0.rate = v } }
        for v in [0.9, 0.8, 0.7, 0.6, 0.5, 0.42, 0.35, 0.3, 0.25, 0.2, 0.16, 0.125] { push { $0.scale = v } }
        return out
    }

    /// The first of `count` settings whose size fits `limit`, asking
    /// `size(i)` as few times as a binary search needs (sizes are taken to
    /// fall along the ladder); nil when even the last does not fit. `size`
    /// may return nil for a setting it could not make (taken as too big).
    public static func search(count: Int, limit: Int, size: (Int) throws -> Int?) rethrows -> Int? {
        guard count > 0 else { return nil }
        if let s = try size(0), s <= limit { return 0 }
        guard let s = try size(count - 1), s <= limit else { return nil }
        var (lo, hi) = (0, count - 1)  // lo does not fit, hi fits
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if let s = try size(mid), s <= limit { hi = mid } else { lo = mid }
        }
        return hi
    }
}
