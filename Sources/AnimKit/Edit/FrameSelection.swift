/// Which frames of an animation an edit keeps, in the order given: ranges
/// and single frames, 0-based, as `anim`'s `--frames` reads them ("0-9",
/// "12", "20-" to the end, "9-0" backwards, "0-4,10-14" a list).
public struct FrameSelection: Equatable, Sendable {
    /// One part of the list: `first` to `last` inclusive (backwards when
    /// `last` < `first`); `last` nil: to the last frame.
    public struct Part: Equatable, Sendable {
        /// The first frame of the part.
        public var first: Int
        /// The last frame (nil: the file's last).
        public var last: Int?

        /// Frames `first` to `last`.
        public init(first: Int, last: Int?) {
            (self.first, self.last) = (first, last)
        }
    }

    /// The parts, in the order given.
    public var parts: [Part]

    /// A selection of these parts.
    public init(parts: [Part]) { self.parts = parts }

    /// Reads "A-B", "A-", "A" and comma-separated lists of them; nil when
    /// the text is none of these.
    public init?(_ text: String) {
        var parts: [Part] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = Int(pieces[0]), first >= 0 else { return nil }
            if pieces.count == 1 {
                parts.append(Part(first: first, last: first))
            } else if pieces[1].isEmpty {
                parts.append(Part(first: first, last: nil))
            } else {
                guard let last = Int(pieces[1]), last >= 0 else { return nil }
                parts.append(Part(first: first, last: last))
            }
        }
        guard !parts.isEmpty else { return nil }
        self.parts = parts
    }

    /// The frame numbers selected from `count` frames, in order. Throws
    /// `Problem` naming a part that reaches past the last frame.
    public func frames(of count: Int) throws(Problem) -> [Int] {
        if let part = parts.first(where: { $0.first >= count || ($0.last ?? 0) >= count }) {
            throw Problem(part: part, count: count)
        }
        return frames(within: count)
    }

    /// The frame numbers selected that are among `count` frames, in order:
    /// each part cut at the last frame, a part that starts past it left
    /// out. For a damaged file, whose frames end before those asked for.
    public func frames(within count: Int) -> [Int] {
        var out: [Int] = []
        for part in parts where part.first < count || (part.last ?? count) < count {
            let first = min(part.first, count - 1)
            let last = min(part.last ?? (count - 1), count - 1)
            out += first <= last ? Array(first...last) : Array((last...first).reversed())
        }
        return out
    }

    /// A part of the selection past the last of `count` frames.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// The part that reaches too far.
        public var part: Part
        /// How many frames there are.
        public var count: Int

        /// What is wrong, in words.
        public var description: String {
            let text = "\(part.first)" + (part.last.map { $0 == part.first ? "" : "-\($0)" } ?? "-")
            return count == 0
                ? "there are no frames to select"
                : "frame \(text) is past the last frame (\(count - 1))"
        }
    }
}
