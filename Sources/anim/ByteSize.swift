/// Sizes on the command line: `64M`, `1.5G`, `512K`, `4096` (bytes).
enum ByteSize {
    static func parse(_ text: String, option: String) throws -> Int {
        let units: [Character: Double] = ["K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024]
        var number = text.uppercased()
        if number.hasSuffix("B") { number.removeLast() }
        var scale = 1.0
        if let last = number.last, let u = units[last] {
            scale = u
            number.removeLast()
        }
        guard let value = Double(number), value >= 0, value * scale < 9e18 else {
            throw UsageError(message: "\(option) needs a size such as 64M, 1G or 4096, not '\(text)'")
        }
        return Int(value * scale)
    }
}
