/// The order frames play in, and where each starts, over one play.
public enum PlaybackMode: String, Sendable {
    /// 0, 1, … n-1.
    case forward
    /// n-1, … 1, 0.
    case reverse
    /// 0, 1, … n-1, n-2, … 1: forward then back, ends not repeated.
    case pingPong
}

/// One play's sequence of frames with their start times (nanoseconds of
/// animation time), for lookups by time.
struct FrameTimeline {
    let order: [Int]
    /// starts[k] is when order[k] starts; starts.last is the play's length.
    let starts: [Int64]

    /// Each frame's duration in nanoseconds, in the file's order.
    let durations: [Int64]

    init(durations: [Int64], mode: PlaybackMode) {
        self.durations = durations
        let n = durations.count
        switch mode {
        case .forward: order = Array(0..<n)
        case .reverse: order = Array((0..<n).reversed())
        case .pingPong: order = n <= 2 ? Array(0..<n) : Array(0..<n) + Array((1..<(n - 1)).reversed())
        }
        starts = order.reduce(into: [0]) { $0.append($0[$0.count - 1] + max(durations[$1], 0)) }
    }

    var length: Int64 { starts.last ?? 0 }
    var count: Int { order.count }

    /// The position (index into `order`) playing at `time` within one play.
    func position(at time: Int64) -> Int {
        // The last start at or before `time` (binary search).
        var lo = 0
        var hi = order.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The position of `frame` in the order (its first occurrence).
    func position(of frame: Int) -> Int { order.firstIndex(of: frame) ?? 0 }
}
