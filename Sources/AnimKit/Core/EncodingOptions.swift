/// How an `ImageDestination` writes.
@dynamicMemberLookup
public struct EncodingOptions: Sendable, Equatable {
    /// How many times the animation plays; 0: forever (the default).
    public var plays: Int = 0
    /// Duration of a frame added without one.
    public var defaultDuration: Duration = .milliseconds(100)
    /// 0–100: lossy quality (WebP), effort of the palette and compression
    /// search (GIF, APNG). Default 75.
    public var quality: Int = 75
    /// 0–9: how much time to spend on a smaller file (default 5). WebP:
    /// from 7, libwebp's `minimize_size` (each frame tried as a keyframe
    /// and as a sub-frame, blended and not, as `img2webp -min_size`); 8
    /// and 9 do no more yet. APNG: from 3 each frame's disposal is
    /// chosen among NONE, BACKGROUND and PREVIOUS (below, always NONE); at 9
    /// (from 7 for an animation of at most 16 KiB of rows) each frame is also
    /// deflated by zopfli (15 iterations, as zopflipng), the smaller kept.
    /// GIF: from 3 a frame is restored to what was there before it
    /// (disposal 3) when the next frame then differs in a smaller rectangle.
    public var effort = 5
    /// Keep the colour under fully transparent pixels (alpha 0) as it is,
    /// as cwebp's `-exact` does. Off by default: it never shows, and dropped
    /// it no longer makes unchanged pixels differ. APNG then writes it as
    /// transparent black; WebP lets libwebp choose it.
    public var keepHiddenColors = false
    /// Merge a frame identical to the one before into it (durations summed).
    public var mergeIdenticalFrames = true
    /// APNG on an output that cannot seek (a pipe): the number of frames,
    /// which `acTL` must give before the first frame. Identical frames are
    /// then not merged.
    public var frameCount: Int?
    /// The colour profile, EXIF, XMP and text to write (none by default;
    /// `Transcoder` passes the source's on). Each format keeps what it can
    /// hold: GIF the profile (`ICCRGBG1012`), XMP and text as comments, no
    /// EXIF; PNG all of it; WebP the profile, EXIF and XMP, no text.
    /// `ImageMetadata.lost(in:)` says what a format drops.
    public var metadata = ImageMetadata()

    /// How a GIF approximates colours outside its palette; the raw values are
    /// the CLI's `--dither` names.
    public enum Dither: String, Sendable, CaseIterable {
        /// The nearest palette colour, no dithering.
        case none
        /// Floyd–Steinberg error diffusion.
        case floydSteinberg = "fs"
        /// An 8×8 Bayer matrix: stable from frame to frame.
        case ordered
    }

    /// The GIF encoder's own choices.
    public struct GIF: Sendable, Equatable {
        /// Colours in a palette, 2–256.
        public var maxColors = 256
        /// Lossy LZW as gifsicle's `--lossy` has it, 0 (off, the
        /// default) to 200: a pixel may take a colour at most about
        /// √(lossy × 10) away when that makes LZW strings longer.
        public var lossy = 0
        /// A frame whose changed pixels hold more colours than one table
        /// (up to 16 tables' worth) is written as several images, the first
        /// ones with no delay, instead of being approximated, as a GIF with
        /// such frames does (see `DecodingOptions.mergesZeroDelayImages`). Off
        /// by default; `Transcoder` turns it on from GIF to GIF, where such
        /// frames can only come from the source.
        public var exactColors = false
        /// Each duration becomes the nearest centisecond, 0 and 1 cs included
        /// (which browsers play as 100 ms). Off by default: a delay is then at
        /// least 2 cs (`GIFDelayClock`). GIF to GIF read with
        /// `DecodingOptions.imagesAsStored` turns it on, keeping delays as stored.
        public var storedDelays = false
        /// How colours outside the palette are approximated.
        public var dither: Dither = .floydSteinberg
        /// What the writer knows of every frame before the first (the GIF
        /// codec's `prepare`, `GlobalTableChoice`); nil: nothing.
        package var prescan: Prescan?

        /// Every frame, seen before the first is written.
        package struct Prescan: Sendable, Equatable {
            /// The colours of the global table (`0xFFRRGGBB`): every colour the
            /// frames show when they fit, else the table most frames can share
            /// (a frame 0 it does not hold gets a local table); nil: frame 0's.
            package var colors: [UInt32]?
            /// The global table keeps an entry of its own for transparency.
            /// False where that entry would double the table (2, 4, … 128
            /// colours) and no frame needs it: a frame showing transparency
            /// names an entry it does not use.
            package var transparentEntry = true
            /// No frame has a transparent pixel: frame 0 needs no
            /// transparent index (which Pillow otherwise needs to decode
            /// later frames with alpha, see `GIFWriter`).
            package var opaque = false

            package init(colors: [UInt32]?, transparentEntry: Bool = true, opaque: Bool = false) {
                self.colors = colors
                self.transparentEntry = transparentEntry
                self.opaque = opaque
            }
        }

        /// The defaults.
        public init() {}
    }

    /// The WebP encoder's own choices (APNG is always lossless; GIF never is).
    public struct WebP: Sendable, Equatable {
        /// Lossless frames.
        public var lossless = false
        /// Let the encoder choose lossy or lossless per frame.
        public var allowMixed = false
        /// At most this many frames between keyframes (0: libwebp's default).
        public var keyframeInterval = 0

        /// The defaults.
        public init() {}
    }

    /// GIF: palette, lossy LZW, exact colours, delays and dithering; read
    /// and written as `options.maxColors` too (`subscript(dynamicMember:)`).
    public var gif = GIF()
    /// WebP: lossless, mixed and keyframes; read and written as
    /// `options.lossless` too.
    public var webp = WebP()

    /// A GIF choice by its own name: `options.maxColors` is `options.gif.maxColors`.
    public subscript<T>(dynamicMember path: WritableKeyPath<GIF, T>) -> T {
        get { gif[keyPath: path] }
        set { gif[keyPath: path] = newValue }
    }

    /// A WebP choice by its own name: `options.lossless` is `options.webp.lossless`.
    public subscript<T>(dynamicMember path: WritableKeyPath<WebP, T>) -> T {
        get { webp[keyPath: path] }
        set { webp[keyPath: path] = newValue }
    }

    /// Encode on the calling thread only (libwebp's `thread_level` 0): for
    /// a caller that already keeps every core busy with files of its own
    /// (`anim convert --out-dir`). The bytes are the same.
    package var oneThread = false

    /// The default options.
    public init() {}
}

/// A format `ImageDestination` writes.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// GIF89a, APNG (a PNG with `acTL`; one frame is a plain PNG) and WebP.
    case gif, apng, webp
}
