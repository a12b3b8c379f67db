/// The time side of an edit: which source frame is shown, for how long, in
/// play order. Selection, speed, frame rate, reversal and bounce are
/// operations on it; the pixels are `FrameGeometry`'s.
public struct EditTimeline: Equatable, Sendable {
    /// A source frame and how long it shows.
    public struct Entry: Equatable, Sendable {
        /// The source frame shown.
        public var frame: Int
        /// How long it shows.
        public var duration: Duration

        /// An entry showing source frame `frame` for `duration`.
        public init(frame: Int, duration: Duration) {
            (self.frame, self.duration) = (frame, duration)
        }
    }

    /// The entries in play order.
    public var entries: [Entry]

    /// A timeline of these entries.
    public init(entries: [Entry]) { self.entries = entries }

    /// Every frame once, with its duration.
    public init(durations: [Duration]) {
        entries = durations.enumerated().map { Entry(frame: $0.offset, duration: $0.element) }
    }

    /// The whole play's length.
    public var total: Duration { entries.reduce(.zero) { $0 + $1.duration } }

    /// The entries at `positions` (indices into `entries`), in that order.
    public func selecting(_ positions: [Int]) -> EditTimeline {
        EditTimeline(entries: positions.map { entries[$0] })
    }

    /// Played `factor` times as fast: every duration divided by it (to the
    /// nanosecond). A factor that is not positive and finite is a
    /// programmer error (a precondition).
    public func speeded(by factor: Double) -> EditTimeline {
        precondition(factor > 0 && factor.isFinite, "EditTimeline: speed must be positive")
        return EditTimeline(
            entries: entries.map {
                Entry(frame: $0.frame, duration: .nanoseconds(Int64((Self.nanoseconds($0.duration) / factor).rounded())))
            })
    }

    /// Resampled to `fps` frames a second: the play is cut into ticks of
    /// 1/fps; each tick shows the entry shown at its middle (an entry
    /// shorter than half a tick can be dropped), and neighbouring ticks
    /// showing the same entry are merged into one frame. Every boundary
    /// falls on a tick, rounded to the nanosecond from the start (no
    /// drift); the play lasts its length rounded to whole ticks (at least
    /// one). A rate that is not positive and finite is a programmer error
    /// (a precondition).
    public func resampled(fps: Double) -> EditTimeline {
        precondition(fps > 0 && fps.isFinite, "EditTimeline: fps must be positive")
        guard !entries.isEmpty else { return self }
        let total = Self.nanoseconds(total)
        let tick = 1e9 / fps
        let ticks = max(1, Int((total / tick).rounded()))
        // Entry ends, in nanoseconds from the start.
        let ends = entries.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + Self.nanoseconds($1.duration)) }
        var out: [(position: Int, first: Int, last: Int)] = []
        var position = 0
        for k in 0..<ticks {
            let middle = (Double(k) + 0.5) * tick
            while position + 1 < entries.count && ends[position] <= middle { position += 1 }
            if let last = out.last, last.position == position {
                out[out.count - 1].last = k
            } else {
                out.append((position, k, k))
            }
        }
        let at = { (k: Int) in Int64((Double(k) * tick).rounded()) }
        return EditTimeline(
            entries: out.map {
                Entry(frame: entries[$0.position].frame, duration: .nanoseconds(at($0.last + 1) - at($0.first)))
            })
    }

    /// Played backwards.
    public func reversed() -> EditTimeline { EditTimeline(entries: entries.reversed()) }

    /// Forwards, then backwards without showing either end twice in a row
    /// (0 1 2 3 2 1), so that a looping play swings back and forth.
    public func bounced() -> EditTimeline {
        guard entries.count > 2 else { return self }
        return EditTimeline(entries: entries + entries.dropFirst().dropLast().reversed())
    }

    static func nanoseconds(_ d: Duration) -> Double {
        let (seconds, attoseconds) = d.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
