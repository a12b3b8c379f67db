extension Array where Element == UInt8 {
    /// Whether `s` stands somewhere in the bytes (an empty `s` always does).
    public func contains(subsequence s: [UInt8]) -> Bool {
        guard !s.isEmpty, s.count <= count else { return s.isEmpty }
        for i in 0...(count - s.count) where self[i] == s[0] && Array(self[i..<(i + s.count)]) == s { return true }
        return false
    }

    /// Where the last `needle` starts, if anywhere.
    public func lastIndex(of needle: [UInt8]) -> Int? {
        guard !needle.isEmpty, count >= needle.count else { return nil }
        var i = count - needle.count
        while i >= 0 {
            if self[i] == needle[0] && Array(self[i..<(i + needle.count)]) == needle { return i }
            i -= 1
        }
        return nil
    }
}
