// One generator for the tests and the fuzz targets of every test target:
// Tests/AnimTerminalTests/Fuzz/FuzzRandom.swift is a link to this file
// (a test target cannot import another), and Tools/fuzz compiles it into
// each libFuzzer target.

/// SplitMix64: deterministic choices for the fuzz targets, seeded by the
/// input (so a crash reproduces from its input file alone), and for the
/// tests (`RandomAccessTests.SplitMix`, the AnimTerminal tests), seeded by a
/// number.
struct FuzzRandom: RandomNumberGenerator {
    var state: UInt64

    init(state: UInt64) { self.state = state }

    init(_ bytes: [UInt8]) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes.prefix(64) { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        state = h ^ UInt64(bytes.count)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
