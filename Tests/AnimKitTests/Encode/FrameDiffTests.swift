import Testing

@testable import AnimKit

/// `FrameDiff`, the changed-rectangle scan every writer and backend uses,
/// against a brute-force bounding box on random sparse changes.
struct FrameDiffTests {
    func brute(_ a: [UInt32], _ b: [UInt32], _ w: Int, _ h: Int) -> Rect? {
        var (x0, y0, x1, y1) = (w, h, -1, -1)
        for y in 0..<h {
            for x in 0..<w where a[y * w + x] != b[y * w + x] {
                (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
            }
        }
        return x1 < 0 ? nil : Rect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    @Test func matchesABruteForceBoundingBox() {
        var seed: UInt64 = 42
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        for round in 0..<300 {
            let w = 1 + next() % 23
            let h = 1 + next() % 17
            let a = (0..<w * h).map { _ in UInt32(truncatingIfNeeded: next()) }
            var b = a
            for _ in 0..<(round % 5) { b[next() % (w * h)] ^= 1 }
            let got = a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { FrameDiff.changedRect(pa, $0, width: w, height: h) }
            }
            #expect(got == brute(a, b, w, h), "round \(round), \(w)x\(h)")
        }
    }

    @Test func imagesAndCropping() {
        var a = RGBAImage(width: 5, height: 4)
        #expect(FrameDiff.changedRect(a, a) == nil)
        var b = a
        b.pixels[(1 * 5 + 3) * 4 + 3] = 1  // alpha alone differs at (3,1)
        b.pixels[(2 * 5 + 1) * 4] = 9  // red at (1,2)
        let r = FrameDiff.changedRect(a, b)
        #expect(r == Rect(x: 1, y: 1, width: 3, height: 2))
        let crop = b.cropped(to: r!)
        #expect(crop.width == 3 && crop.height == 2 && crop.pixel(x: 2, y: 0).a == 1 && crop.pixel(x: 0, y: 1).r == 9)
        a.pixels[0] = 1
        #expect(a.cropped(to: Rect(x: 0, y: 0, width: 5, height: 4)) == a)
    }

    @Test func boundsCountsTheMarkedPositions() {
        let marked: Set<Int> = [7, 8, 22]  // (2,1), (3,1), (2,4) in a 5-wide grid
        let r = FrameDiff.bounds(width: 5, height: 5) { marked.contains($0) }
        #expect(r.rect == Rect(x: 2, y: 1, width: 2, height: 4) && r.count == 3)
        #expect(FrameDiff.bounds(width: 5, height: 5) { _ in false }.count == 0)
    }
}
