import Testing

@testable import AnimKit

/// Median cut's sort along an axis, done through integer keys: the same
/// order as a stable sort by the coordinate.
struct QuantizerSortTests {
    @Test(arguments: [0, 1, 2])
    func integerKeysGiveAStableSortsOrder(axis: Int) {
        // Coordinates on a coarse grid, so that many are equal (ties keep
        // their order), with zeros and fractions; the weights tell the
        // entries apart.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float((state >> 33) % 40) * 6.375
        }
        let entries = (0..<3000).map { i in Quantizer.Entry(r: next(), g: next(), b: next(), w: Float(i)) }
        for (lo, hi) in [(0, 3000), (17, 1234), (2999, 3000)] {
            var sorted = entries
            Quantizer.sortStably(&sorted, lo, hi, axis: axis)
            var expected = entries
            expected[lo..<hi].sort { $0[axis] < $1[axis] }
            #expect(sorted.map(\.w) == expected.map(\.w), "axis \(axis), \(lo)..<\(hi)")
            #expect(sorted[lo..<hi].map(\.w) != entries[lo..<hi].map(\.w) || hi - lo == 1)
        }
    }
}
