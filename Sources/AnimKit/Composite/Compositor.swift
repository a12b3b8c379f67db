/// Applies steps (patches with blend and dispose) to one RGBA8 canvas.
///
/// Shared by GIF, APNG and WebP. It follows libwebp's `anim_decode.c`: the
/// previous step is disposed in place just before the next is drawn, a
/// keyframe starts from a cleared canvas and is copied without blending,
/// and pixels inside a rectangle that was just disposed to background are
/// copied, not blended (that is what makes WebP bit-exact).
/// Dispose-previous, which only GIF and APNG have, keeps a copy of the area
/// the step covers.
final class Compositor {
    let width: Int
    let height: Int
    let formula: BlendFormula
    /// The canvas, `width * height * 4` bytes.
    private(set) var canvas: UnsafeMutableBufferPointer<UInt8>
    /// The allocation behind `canvas` (it may be larger).
    private var storage: UnsafeMutableRawBufferPointer
    /// The step the canvas shows, -1 when nothing is drawn.
    var currentStep = -1
    var currentInfo: Step?
    var saved: [UInt8] = []
    private var pendingRawRect: Rect?

    init(width: Int, height: Int, formula: BlendFormula) {
        (self.width, self.height, self.formula) = (width, height, formula)
        storage = .allocate(byteCount: width * height * 4, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        canvas = storage.bindMemory(to: UInt8.self)
    }

    deinit { storage.deallocate() }

    /// Makes `buffer` (at least `width * height * 4` bytes, holding the
    /// whole new canvas) the canvas, and returns the old allocation:
    /// placing a full-canvas replacing step decoded elsewhere then costs no
    /// copy.
    func adopt(_ buffer: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        precondition(buffer.count >= width * height * 4, "compositor: buffer too small")
        let old = storage
        storage = buffer
        canvas = UnsafeMutableBufferPointer(
            start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
            count: width * height * 4)
        return old
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Forgets the canvas; the next step drawn must be a keyframe.
    func reset() {
        currentStep = -1
        currentInfo = nil
    }

    /// How a step's pixels reach the canvas.
    enum Route {
        /// Decode straight into the canvas (rows `stride` bytes apart): a
        /// keyframe or a replacing step (which must write every pixel), or,
        /// `masked`, a codec whose transparent pixels are not written (GIF:
        /// "over" with 1-bit alpha is a masked write).
        case canvas(UnsafeMutableRawPointer, stride: Int, masked: Bool)
        /// Decode into a patch, then call `blend(_:patch:)`.
        case patch
    }

    /// Starts step `index`: disposes of the previous step, clears for a
    /// keyframe, saves the area for dispose-previous, and says where the
    /// codec should write. The canvas must show step `index - 1`, or `step`
    /// must be a keyframe. Finish with `blend` (for `.patch`) then `end`.
    func begin(step: Step, index: Int, masked: Bool) -> Route {
        let continuing = currentStep == index - 1 && currentInfo != nil
        precondition(continuing || step.isKey, "compositor: step \(index) is not a keyframe")
        pendingRawRect = continuing ? currentInfo.flatMap(dispose) : nil
        reset()  // until `end`: the canvas is in between
        if step.isKey {
            // A keyframe starts from a transparent canvas. One that covers
            // the canvas writes every pixel itself, but one disposed to the
            // previous pixels gives back what was under it: transparency,
            // not a frame left from before a seek (a loop, a step back).
            if step.rect != bounds || step.dispose == .previous { clear(bounds) }
            pendingRawRect = nil
        }
        if step.dispose == .previous { save(step.rect) }
        let replaces = Self.replaces(step)
        guard replaces || (masked && formula == .exact), !step.rect.isEmpty else { return .patch }
        let origin = UnsafeMutableRawPointer(canvas.baseAddress! + (step.rect.y * width + step.rect.x) * 4)
        return .canvas(origin, stride: width * 4, masked: !replaces)
    }

    /// Blends a decoded patch (rows of `step.rect.width * 4` bytes) over
    /// the canvas, after `begin` returned `.patch`.
    func blend(_ step: Step, patch: UnsafeRawBufferPointer) {
        paint(step, patch: patch, copyOnly: false)
    }

    /// Puts a step decoded into a separate buffer (rows of
    /// `step.rect.width * 4` bytes, transparent pixels with alpha 0) on
    /// the canvas, whichever route `begin` returned.
    func place(_ step: Step, patch: UnsafeRawBufferPointer) {
        paint(step, patch: patch, copyOnly: Self.replaces(step))
    }

    /// True when `step` replaces the whole canvas, so its decoded buffer
    /// can be adopted instead of copied.
    func replacesAll(_ step: Step) -> Bool {
        step.rect == bounds && Self.replaces(step)
    }

    /// True when `step`'s pixels simply replace the canvas's: a keyframe, a
    /// step that does not blend, or an opaque one (over an opaque source,
    /// both blend formulas give the source: libwebp's skips alpha-255
    /// pixels).
    static func replaces(_ step: Step) -> Bool {
        step.isKey || step.blend == .source || !step.hasAlpha
    }

    /// Marks step `index` as drawn.
    func end(step: Step, index: Int) {
        currentStep = index
        currentInfo = step
    }

    /// Applies `step`'s disposal; returns the rect cleared to background.
    private func dispose(_ step: Step) -> Rect? {
        switch step.dispose {
        case .none: return nil
        case .background:
            clear(step.rect)
            return step.rect
        case .previous:
            restore(step.rect)
            return nil
        }
    }

    private func clear(_ r: Rect) {
        guard !r.isEmpty else { return }
        let rowBytes = r.width * 4
        for y in r.y..<(r.y + r.height) {
            let start = (y * width + r.x) * 4
            UnsafeMutableRawPointer(canvas.baseAddress! + start).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
        }
    }

    private func save(_ r: Rect) {
        let rowBytes = r.width * 4
        if saved.count != rowBytes * r.height { saved = [UInt8](repeating: 0, count: rowBytes * r.height) }
        guard !r.isEmpty else { return }
        saved.withUnsafeMutableBytes { dst in
            for y in 0..<r.height {
                let src = canvas.baseAddress! + ((r.y + y) * width + r.x) * 4
                (dst.baseAddress! + y * rowBytes).copyMemory(from: src, byteCount: rowBytes)
            }
        }
    }

    private func restore(_ r: Rect) {
        let rowBytes = r.width * 4
        guard !r.isEmpty, saved.count == rowBytes * r.height else { return }
        saved.withUnsafeBytes { src in
            for y in 0..<r.height {
                let dst = canvas.baseAddress! + ((r.y + y) * width + r.x) * 4
                UnsafeMutableRawPointer(dst).copyMemory(from: src.baseAddress! + y * rowBytes, byteCount: rowBytes)
            }
        }
    }

    private func paint(_ step: Step, patch: UnsafeRawBufferPointer, copyOnly: Bool) {
        let r = step.rect
        guard !r.isEmpty else { return }
        let rowBytes = r.width * 4
        precondition(patch.count >= rowBytes * r.height, "compositor: patch too small")
        let src0 = patch.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<r.height {
            let src = src0 + y * rowBytes
            let dst = canvas.baseAddress! + ((r.y + y) * width + r.x) * 4
            if copyOnly {
                dst.update(from: src, count: rowBytes)
                continue
            }
            // Inside a rect just disposed to background the canvas is
            // transparent: copy, as libwebp does (FindBlendRangeAtRow).
            var lo = 0
            var hi = 0
            if let d = pendingRawRect, r.y + y >= d.y, r.y + y < d.y + d.height {
                lo = min(max(d.x - r.x, 0), r.width)
                hi = min(max(d.x + d.width - r.x, 0), r.width)
            }
            if lo > 0 { formula.blendRow(src, dst, lo) }
            if hi > lo { (dst + lo * 4).update(from: src + lo * 4, count: (hi - lo) * 4) }
            if hi < r.width { formula.blendRow(src + hi * 4, dst + hi * 4, r.width - max(hi, 0)) }
        }
    }
}
