// One generator for the tests of every test target and the fuzz targets:
// Tools/fuzz compiles this file into each libFuzzer target.

/// SplitMix64: deterministic choices for the fuzz targets, seeded by the
/// input (so a crash reproduces from its input file alone), and for the
/// tests (`RandomAccessTests.SplitMix`, the AnimTerminal tests), seeded by a
/// number.
public struct FuzzRandom: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public init(_ seed: UInt64) { self.init(state: seed) }

    public init(_ bytes: [UInt8]) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes.prefix(64) { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        state = h ^ UInt64(bytes.count)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n.
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// A number in 0..<n (the sixel tests' name).
    public mutating func below(_ n: Int) -> Int { int(n) }
    /// The low byte of the next number.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    /// Bits 24–31 of the next number.
    public mutating func highByte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 24) }
}
