import AnimTestSupport
import Testing

@testable import AnimKit

/// `ColorTransform.toSRGB` keeps its last answers: the same colour space
/// asked again gives the same transform, another one its own.
struct ColorTransformCacheTests {
    @Test func theSameColourSpaceGivesTheSameTransform() throws {
        let p3 = try #require(Fixtures.source("color/p3.png").metadata.iccProfile)
        let first = try #require(ColorTransform.toSRGB(from: .icc(p3)).transform)
        let again = try #require(ColorTransform.toSRGB(from: .icc(p3)).transform)
        #expect(first === again)
        let gamma = try #require(ColorTransform.toSRGB(from: .gamma(1 / 2.2, chromaticities: nil)).transform)
        #expect(gamma !== first)
        let slow = try #require(ColorTransform.toSRGB(from: .icc(p3), fastPath: false).transform)
        #expect(slow !== first && !slow.usesFastPath && first.usesFastPath)
        // A damaged profile's problem is kept with it.
        let damaged = ColorTransform.toSRGB(from: .icc([1, 2, 3]))
        #expect(damaged.transform == nil && damaged.problem != nil)
        #expect(ColorTransform.toSRGB(from: .icc([1, 2, 3])).problem == damaged.problem)
        // Two sources of one file share it.
        let a = try Fixtures.source("color/p3.webp")
        let b = try Fixtures.source("color/p3.webp")
        #expect(try a.frame(at: 1) == b.frame(at: 1))
    }
}
