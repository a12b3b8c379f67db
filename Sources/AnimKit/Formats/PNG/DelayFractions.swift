/// Frame durations as APNG delay fractions (numerator/denominator of a
/// second, each at most 65535): exact when a small denominator expresses
/// the duration (1/30 s as 1/30), else milliseconds with the rounding
/// carried forward so that the total does not drift.
struct DelayFractions {
    private var carryNs: Int64 = 0

    mutating func next(_ duration: Duration) -> (UInt16, UInt16) {
        let ns = duration.nanosecondsValue
        // An exact fraction with a small denominator (frame rates), within 1 µs.
        for den: Int64 in [1000, 100, 30, 60, 24, 25, 50, 120, 48, 15, 12, 10] {
            let num = (ns * den + 500_000_000) / 1_000_000_000
            if num <= 65535 && abs(num * 1_000_000_000 - ns * den) < den * 1000 { return (UInt16(num), UInt16(den)) }
        }
        // Milliseconds, carrying the remainder.
        let total = ns + carryNs
        let ms = min(max((total + 500_000) / 1_000_000, 0), 65535)
        carryNs = total - ms * 1_000_000
        return (UInt16(ms), 1000)
    }
}
