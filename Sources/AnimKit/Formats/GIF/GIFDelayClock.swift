/// Turns frame durations into GIF delays (centiseconds) so that each
/// frame ends as close as possible to its exact time from the start: the
/// rounding error is carried forward, so 33.3 ms frames get 3, 4, 3, 3, 4…
/// and the total stays exact.
///
/// A delay is at least 2 cs, since browsers play 0 and 1 cs as 10 cs; the
/// time gained that way is taken back from the frames after, where it
/// can be (not with `stored`: delays as the source stores them, 0 and 1
/// included). A delay is at most 65535 cs (the field's limit).
struct GIFDelayClock {
    static let maximum = 65535
    let minimum: Int
    init(stored: Bool = false) { minimum = stored ? 0 : 2 }
    /// The exact end of the frames so far, in microseconds.
    private(set) var elapsedMicroseconds = 0
    /// The sum of the delays given so far, in centiseconds.
    private(set) var writtenCentiseconds = 0

    /// The delay for the next frame, shown for `duration`.
    mutating func delay(for duration: Duration) -> Int {
        let micro = max(0, Int(duration.nanosecondsValue / 1000))
        elapsedMicroseconds += micro
        let end = (elapsedMicroseconds + 5_000) / 10_000
        let delay = min(max(end - writtenCentiseconds, minimum), Self.maximum)
        writtenCentiseconds += delay
        return delay
    }
}
