extension Transcoder {
    /// What of the source a transcode keeps, unless the options say
    /// otherwise.
    public struct Keep: OptionSet, Sendable {
        /// The option set's bits.
        public let rawValue: Int
        /// A set of these bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The source's play count (as far as the format counts), instead
        /// of `EncodingOptions.plays`.
        public static let plays = Keep(rawValue: 1)
        /// The source's metadata, unless `EncodingOptions.metadata` is set.
        public static let metadata = Keep(rawValue: 2)
        /// Each frame's duration; without it every frame shows
        /// `EncodingOptions.defaultDuration`.
        public static let durations = Keep(rawValue: 4)
        /// All of them.
        public static let all: Keep = [.plays, .metadata, .durations]
    }
}
