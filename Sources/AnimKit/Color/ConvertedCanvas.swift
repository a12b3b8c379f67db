/// The colour-converted copy of a canvas that `FrameCursor` delivers: the
/// canvas keeps the stored values (the next frame is composited on them),
/// and this copy is brought up to date after each frame.
///
/// Converting once composited is what Chromium 156 shows (its
/// `ImageDecoder` and `<img>`, within 1 level; its png_image_decoder.cc
/// converts per row, but shows the composited frame converted). Converting
/// each frame before blending would be up to 60 levels away on a P3 APNG
/// whose translucent frame is blended over another (`p3-over.png`,
/// `ColorManagementTests`), and leave half the red of APNG suite 023
/// (`gAMA` 0.00045) where Chromium shows black.
///
/// Only the pixels that differ from the stored values last converted
/// (`shadow`) are converted again: a frame blended over the canvas,
/// transparent where nothing moved, changes a large rectangle but few
/// pixels; disposals, checkpoints and seeks need no bookkeeping.
///
/// Not `Sendable`: owned by the cursor, used under its lock.
final class ConvertedCanvas {
    let transform: ColorTransform
    let width: Int
    let height: Int
    /// The converted pixels, RGBA8.
    private(set) var pixels: UnsafeMutableRawBufferPointer
    /// The stored values `pixels` are the conversion of.
    private let shadow: UnsafeMutableRawBufferPointer
    /// The step of the canvas `pixels` were last brought up to date with, or -1.
    private(set) var step = -1

    init(transform: ColorTransform, width: Int, height: Int) {
        (self.transform, self.width, self.height) = (transform, width, height)
        let bytes = width * height * 4
        pixels = .allocate(byteCount: bytes, alignment: 16)
        shadow = .allocate(byteCount: bytes, alignment: 16)
        // Transparent black both ways: a shadow of zeros holds the
        // conversion of zeros, so the first frame converts what differs.
        shadow.initializeMemory(as: UInt8.self, repeating: 0)
        pixels.initializeMemory(as: UInt8.self, repeating: 0)
        var zero: UInt32 = 0
        withUnsafeMutableBytes(of: &zero) { transform.convert($0.baseAddress!, into: $0.baseAddress!, count: 1) }
        if zero != 0 {
            for i in 0..<(width * height) { pixels.storeBytes(of: zero, toByteOffset: i * 4, as: UInt32.self) }
        }
    }

    deinit {
        pixels.deallocate()
        shadow.deallocate()
    }

    /// Sets rectangle `rect` to pixels whose conversion is known: `stored`
    /// (as the canvas holds them) and `converted`, rows of `rect.width`
    /// pixels each (a replacing step converted where it was decoded).
    func place(_ rect: Rect, stored: UnsafeRawPointer, converted: UnsafeRawPointer) {
        let rowBytes = rect.width * 4
        for y in 0..<max(rect.height, 0) where rowBytes > 0 {
            let offset = ((rect.y + y) * width + rect.x) * 4
            (shadow.baseAddress! + offset).copyMemory(from: stored + y * rowBytes, byteCount: rowBytes)
            (pixels.baseAddress! + offset).copyMemory(from: converted + y * rowBytes, byteCount: rowBytes)
        }
    }

    /// Brings the converted pixels up to `canvas` at step `step`.
    /// `changed`: the only rectangle where the canvas can differ from the
    /// one at `since`; nil when anything may have changed. `known`: a
    /// rectangle `place` brought up to date since, which is not compared
    /// again.
    func update(from canvas: UnsafeRawBufferPointer, step: Int, changed: (since: Int, rect: Rect)?, known: Rect? = nil) {
        var r = Rect(x: 0, y: 0, width: width, height: height)
        if let changed, changed.since == self.step, self.step >= 0 { r = changed.rect.intersection(r) }
        self.step = step
        for part in Self.parts(of: r, outside: known) { compare(canvas, part) }
    }

    /// `r` less `hole`: up to four rectangles (above, below, left, right).
    static func parts(of r: Rect, outside hole: Rect?) -> [Rect] {
        guard !r.isEmpty else { return [] }
        guard let hole, !hole.intersection(r).isEmpty else { return [r] }
        let h = hole.intersection(r)
        return [
            Rect(x: r.x, y: r.y, width: r.width, height: h.y - r.y),
            Rect(x: r.x, y: h.y + h.height, width: r.width, height: r.y + r.height - h.y - h.height),
            Rect(x: r.x, y: h.y, width: h.x - r.x, height: h.height),
            Rect(x: h.x + h.width, y: h.y, width: r.x + r.width - h.x - h.width, height: h.height),
        ].filter { !$0.isEmpty }
    }

    private func compare(_ canvas: UnsafeRawBufferPointer, _ r: Rect) {
        guard !r.isEmpty else { return }
        // Whole rows are one run.
        let (runs, count) = r.width == width ? (1, width * r.height) : (r.height, r.width)
        for y in r.y..<(r.y + runs) {
            let offset = (y * width + r.x) * 4
            transform.convertChanged(
                canvas.baseAddress! + offset, shadow: shadow.baseAddress! + offset, into: pixels.baseAddress! + offset,
                count: count)
        }
    }
}
