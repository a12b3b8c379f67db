import Testing

@testable import AnimKit

/// The compositor on its own, step by step on a 4×4 canvas: keyframes,
/// blending (both formulas), the three disposals, masked writes, snapshots.
struct CompositorTests {
    static let red: [UInt8] = [255, 0, 0, 255]

    /// Draws `step` as step `index` with every pixel of its rect `pixel`.
    func draw(_ c: Compositor, _ step: Step, index: Int, pixel: [UInt8], masked: Bool = false) {
        let patch = Array([[UInt8]](repeating: pixel, count: step.rect.width * step.rect.height).joined())
        switch c.begin(step: step, index: index, masked: masked) {
        case .patch:
            patch.withUnsafeBytes { c.blend(step, patch: $0) }
        case .canvas(let origin, let stride, let isMasked):
            for y in 0..<step.rect.height {
                for x in 0..<step.rect.width where !(isMasked && pixel[3] == 0) {
                    for k in 0..<4 { origin.storeBytes(of: pixel[k], toByteOffset: y * stride + x * 4 + k, as: UInt8.self) }
                }
            }
        }
        c.end(step: step, index: index)
    }

    func px(_ c: Compositor, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * c.width + x) * 4
        return Array(c.canvas[i..<i + 4])
    }

    func step(
        _ x: Int, _ y: Int, _ w: Int, _ h: Int, dispose: DisposeOp = .none, blend: BlendOp = .over, alpha: Bool = true,
        key: Bool = false
    ) -> Step {
        Step(rect: Rect(x: x, y: y, width: w, height: h), dispose: dispose, blend: blend, hasAlpha: alpha, isKey: key)
    }

    @Test func keyframeThenBlendOverThenDisposals() {
        let c = Compositor(width: 4, height: 4, formula: .exact)
        draw(c, step(0, 0, 4, 4, blend: .source, alpha: false, key: true), index: 0, pixel: Self.red)
        #expect(px(c, 3, 3) == Self.red && c.currentStep == 0)
        // Half-transparent blue over red, by the rounded integer "over".
        draw(c, step(1, 1, 2, 2, dispose: .background), index: 1, pixel: [0, 0, 255, 128])
        #expect(px(c, 1, 1) == [127, 0, 128, 255] && px(c, 2, 2) == [127, 0, 128, 255])
        #expect(px(c, 0, 0) == Self.red)
        // Step 1 is disposed to background before step 2 draws.
        draw(c, step(0, 0, 1, 1, dispose: .none), index: 2, pixel: [0, 255, 0, 255])
        #expect(px(c, 1, 1) == [0, 0, 0, 0] && px(c, 2, 2) == [0, 0, 0, 0])
        #expect(px(c, 0, 0) == [0, 255, 0, 255] && px(c, 3, 3) == Self.red)
        // Dispose-previous puts back what step 3 covered.
        draw(c, step(3, 3, 1, 1, dispose: .previous, blend: .source), index: 3, pixel: [255, 255, 255, 255])
        #expect(px(c, 3, 3) == [255, 255, 255, 255])
        draw(c, step(3, 0, 1, 1), index: 4, pixel: [0, 0, 0, 0])
        #expect(px(c, 3, 3) == Self.red)
        #expect(px(c, 3, 0) == Self.red, "a transparent pixel blended over leaves the canvas")
    }

    @Test func aKeyframeNotCoveringTheCanvasClearsIt() {
        let c = Compositor(width: 4, height: 4, formula: .exact)
        draw(c, step(0, 0, 4, 4, blend: .source, alpha: false, key: true), index: 0, pixel: Self.red)
        c.reset()
        draw(c, step(1, 1, 1, 1, key: true), index: 7, pixel: [9, 9, 9, 255])
        #expect(px(c, 1, 1) == [9, 9, 9, 255] && px(c, 0, 0) == [0, 0, 0, 0] && c.currentStep == 7)
    }

    @Test func maskedWritesKeepTransparentPixels() {
        let c = Compositor(width: 4, height: 4, formula: .exact)
        draw(c, step(0, 0, 4, 4, blend: .source, alpha: false, key: true), index: 0, pixel: Self.red)
        let s = step(0, 0, 2, 2)
        guard case .canvas(_, let stride, let masked) = c.begin(step: s, index: 1, masked: true) else {
            Issue.record("a masked codec with the exact formula writes into the canvas")
            return
        }
        #expect(stride == 16 && masked)
        c.end(step: s, index: 1)
        #expect(px(c, 0, 0) == Self.red)
    }

    @Test func libwebpCopiesInsideARectJustDisposed() {
        // libwebp: inside the rect disposed to background, pixels are copied,
        // not blended; outside, its own non-premultiplied blend.
        let c = Compositor(width: 4, height: 1, formula: .libwebp)
        draw(c, step(0, 0, 4, 1, blend: .source, alpha: false, key: true), index: 0, pixel: Self.red)
        draw(c, step(0, 0, 2, 1, dispose: .background), index: 1, pixel: [0, 0, 255, 255])
        draw(c, step(0, 0, 4, 1), index: 2, pixel: [0, 0, 255, 100])
        #expect(px(c, 0, 0) == [0, 0, 255, 100] && px(c, 1, 0) == [0, 0, 255, 100])
        let outside = px(c, 3, 0)
        #expect(outside[3] == 255 && outside[0] > 0 && outside[2] > 0, "\(outside): blended over red")
    }

    @Test func snapshotRestoresCanvasAndSavedArea() throws {
        let c = Compositor(width: 4, height: 4, formula: .exact)
        draw(c, step(0, 0, 4, 4, blend: .source, alpha: false, key: true), index: 0, pixel: Self.red)
        draw(c, step(2, 2, 2, 2, dispose: .previous, blend: .source), index: 1, pixel: [1, 2, 3, 255])
        let snap = try #require(c.snapshot())
        #expect(snap.step == 1 && snap.cost == 64 + 16)
        draw(c, step(0, 0, 4, 4, blend: .source, alpha: false), index: 2, pixel: [7, 7, 7, 255])
        c.restore(snap)
        #expect(c.currentStep == 1 && px(c, 2, 2) == [1, 2, 3, 255])
        draw(c, step(0, 0, 1, 1), index: 2, pixel: [0, 0, 0, 0])
        #expect(px(c, 2, 2) == Self.red, "the saved area came back with the snapshot")
    }

    @Test func keyframeMarking() {
        let canvas = Rect(x: 0, y: 0, width: 4, height: 4)
        var steps = [
            step(0, 0, 2, 2),  // first: key
            step(0, 0, 4, 4, alpha: false),  // covers, opaque: key
            step(1, 1, 2, 2, dispose: .background),  // blends over: not key
            step(0, 0, 1, 1),  // after a background disposal of a non-key partial rect: not key
            step(0, 0, 4, 4, dispose: .background, blend: .source),  // covers, replaces: key
            step(2, 2, 1, 1),  // after a disposed key: key
            step(0, 0, 4, 4, dispose: .previous, blend: .source),  // dispose previous: never key
        ]
        Step.markKeyframes(&steps, canvas: canvas)
        #expect(steps.map(\.isKey) == [true, true, false, false, true, true, false])
    }
}
