/// The small draws the AnimTerminal tests make from the one generator.
extension FuzzRandom {
    init(_ seed: UInt64) { self.init(state: seed) }
    /// A number in 0..<n.
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// A number in 0..<n (the sixel tests' name).
    mutating func below(_ n: Int) -> Int { int(n) }
    /// The low byte of the next number.
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    /// Bits 24–31 of the next number.
    mutating func highByte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 24) }
}
