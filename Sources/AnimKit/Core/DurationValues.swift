extension Duration {
    /// Whole nanoseconds (rounded down).
    var nanosecondsValue: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// Milliseconds, rounded to the nearest (for a duration of 0 or more).
    var roundedMilliseconds: Int { Int((nanosecondsValue + 500_000) / 1_000_000) }
}
