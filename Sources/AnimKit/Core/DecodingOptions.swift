/// How delays stored in a file become the durations that are played.
public enum DurationPolicy: Equatable, Sendable {
    /// What the browsers do: a delay of `threshold` or less plays as
    /// `replacement` (10 ms and 100 ms in Chrome, Firefox and Safari), so that
    /// GIFs saved with a 0 or 1 centisecond delay do not race.
    case browser(threshold: Duration = .milliseconds(10), replacement: Duration = .milliseconds(100))
    /// Play the delays exactly as stored.
    case raw

    /// The browsers' policy with their thresholds.
    public static let browsers = DurationPolicy.browser()

    /// The duration to play for a stored `delay`.
    public func effective(_ delay: Duration) -> Duration {
        switch self {
        case .raw: return delay
        case .browser(let threshold, let replacement):
            return delay <= threshold ? replacement : delay
        }
    }
}

/// Limits checked before anything is allocated, so that a small hostile file
/// cannot make the decoder allocate gigabytes. The defaults let every real
/// animation through.
public struct DecodingLimits: Equatable, Sendable {
    /// Largest canvas, in pixels (default 2^27 = 134 megapixels, 512 MiB as
    /// RGBA; a 65535×65535 GIF is refused, 16384×8192 passes).
    public var maxCanvasPixels: Int = 1 << 27
    /// Largest number of frames (images, for GIF) in one file.
    public var maxFrameCount: Int = 100_000
    /// Largest total of decoded pixel bytes over all frames of one play
    /// (the sum of every frame's rectangle × 4): stops files of many tiny
    /// frames that each declare a huge area. Default 64 GiB.
    public var maxDecodedBytes: Int = 64 << 30
    /// Largest canvas for each byte of the file (a whole file, not a
    /// stream still arriving): a canvas out of all proportion to its bytes
    /// is a decompression bomb. No real GIF, PNG or WebP comes near the
    /// default, 65536: a full-canvas image compresses to at most a few
    /// thousand pixels a byte.
    public var maxPixelsPerByte: Int = 65536
    /// The most memory, in bytes, one source's decoding may hold
    /// (`ImageSource.memoryFootprint`). Decoding ahead is reduced to fit; a
    /// file whose decoding cannot fit even on one thread opens, but its
    /// first frame is refused before anything canvas-sized is allocated.
    /// Default `defaultMaxMemory`.
    public var maxMemory: Int = DecodingLimits.defaultMaxMemory

    /// A quarter of physical memory, at most 2 GiB.
    public static var defaultMaxMemory: Int { min(System.physicalMemory / 4, 2 << 30) }

    /// The default limits.
    public init() {}

    /// Limits with the given maxima.
    public init(maxCanvasPixels: Int, maxFrameCount: Int, maxDecodedBytes: Int) {
        self.maxCanvasPixels = maxCanvasPixels
        self.maxFrameCount = maxFrameCount
        self.maxDecodedBytes = maxDecodedBytes
    }
}

/// A size in pixels.
public struct PixelSize: Equatable, Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// A size of `width`×`height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Whether frames are converted to sRGB (`DecodingOptions.colorManagement`).
public enum ColorManagement: String, Sendable, CaseIterable {
    /// Frames in sRGB, converted from the file's colour space when it names one.
    case sRGB
    /// The values as stored.
    case none
}

/// Options for opening an `ImageSource`.
public struct DecodingOptions: Equatable, Sendable {
    /// Delays to durations; the browsers' policy by default.
    public var durationPolicy: DurationPolicy = .browsers
    /// Limits checked before allocation.
    public var limits = DecodingLimits()
    /// How many frames may be decoded ahead on other threads while frames
    /// are read in order (0: none; by default `defaultDecodeAhead`).
    public var decodeAhead: Int = DecodingOptions.defaultDecodeAhead

    /// Map files of 4 MiB or more instead of reading them, and give back the
    /// pages of frames already decoded, so memory does not grow with the file.
    public var mapFiles = true
    /// Deliver frames downsampled to fit inside this box, keeping the aspect
    /// ratio and never enlarging (nil: full size); compositing stays full size.
    public var fitIn: PixelSize?
    /// Deliver frames resampled to exactly this size, aspect ratio not kept
    /// (a terminal's cells have non-square sub-pixels), enlarging by nearest
    /// neighbour where it is larger. Overrides `fitIn`.
    public var resizeTo: PixelSize?
    /// Keep a frame the file ends inside (a GIF image cut short) in
    /// `frames`, drawn as far as its data goes and flagged by
    /// `FrameInfo.isComplete`, as browsers show it (the default). False:
    /// leave it out, so that `frames` holds whole frames only; `indexError`
    /// still says where the file ends.
    public var allowsIncompleteFrames = true
    /// GIF: true reads an image without delay as a drawing step of the next
    /// frame, as GIF89a describes it (`GIFFrameGrouping`). False, the default:
    /// every image is a frame, as browsers, Pillow, ffmpeg and gifsicle show it
    /// (a delay of 0 playing as 100 ms under the browsers' duration policy), so
    /// that files made for browsers play as their authors saw them.
    public var mergesZeroDelayImages = false
    /// GIF: a first image that reaches past the logical screen grows the
    /// canvas to cover it (the union of the two), as Chromium does; later
    /// images are clipped to that canvas (the default). False: the screen
    /// is the canvas and every image is clipped to it, as GIF89a wants
    /// images to fit it.
    public var growsCanvasToFirstImage = true
    /// Colour management, as browsers do it: `.sRGB` (the default) converts
    /// frames to sRGB, with Little CMS, when the file says its colours are in
    /// another space (an ICC profile: PNG `iCCP`, WebP `ICCP`, GIF
    /// `ICCRGBG1012`; or PNG `gAMA`/`cHRM` without `sRGB` or `iCCP`). `.none`
    /// delivers the stored values. `ImageSource.colorConversion` says what was
    /// converted from.
    public var colorManagement: ColorManagement = .sRGB

    /// Options with the given policy, limits, decode-ahead and fit box;
    /// `mapFiles` and `resizeTo` keep their defaults.
    public init(
        durationPolicy: DurationPolicy = .browsers, limits: DecodingLimits = DecodingLimits(),
        decodeAhead: Int = DecodingOptions.defaultDecodeAhead, fitIn: PixelSize? = nil
    ) {
        self.durationPolicy = durationPolicy
        self.limits = limits
        self.decodeAhead = decodeAhead
        self.fitIn = fitIn
    }

    /// Frames no larger than `n` pixels on their longer side (like ImageIO's
    /// `kCGImageSourceThumbnailMaxPixelSize`); nil for full size.
    public var maxPixelSize: Int? {
        get { fitIn.map { max($0.width, $0.height) } }
        set { fitIn = newValue.map { PixelSize(width: $0, height: $0) } }
    }

    /// A GIF's images as they are stored: each a frame (not merged) with
    /// its stored delay (`.raw`). How GIF to GIF rewrites read, so that the
    /// output keeps the source's images and timing byte for byte.
    public static var imagesAsStored: DecodingOptions {
        var options = DecodingOptions(durationPolicy: .raw)
        options.mergesZeroDelayImages = false
        return options
    }

    /// The active core count, at most 4.
    public static var defaultDecodeAhead: Int {
        min(max(System.activeProcessorCount, 1), 4)
    }
}
