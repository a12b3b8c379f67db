import AnimKit
import Testing

@testable import AnimTerminal

/// The iTerm2 backend's stream, replayed by a model of a terminal that keeps
/// inline images as pieces of cells (a new image written over cells
/// replaces what they held), shows exactly the frames given.
struct ITerm2BackendTests {
    func placement(_ image: RGBAImage, row: Int = 2, column: Int = 3) -> Placement {
        Placement(
            row: row, column: column, columns: (image.width + 9) / 10, rows: (image.height + 19) / 20,
            pixels: PixelSize(width: image.width, height: image.height), cell: CellGeometry(width: 10, height: 20))
    }

    @Test func framesAreReproducedOverDiffsInBothDirections() {
        let frames = KittyBackendTests.clip(10, alpha: true)
        let backend = ITerm2Backend(background: .none)
        var screen = ITerm2Screen(columns: 30, rows: 10)
        var sizes: [Int] = []
        for i in Array(0..<10) + Array((0..<10).reversed()) + [3, 7, 1] {
            let bytes = backend.render(frames[i], index: i, placement: placement(frames[i]))
            sizes.append(bytes.count)
            screen.feed(bytes)
            #expect(screen.errors.isEmpty, "\(screen.errors)")
            let exact = screen.region(placement(frames[i])) == frames[i]
            #expect(exact, "frame \(i)")
        }
        #expect(sizes.dropFirst().allSatisfy { $0 < sizes[0] / 2 }, "a moving sprite costs a part of a frame: \(sizes)")
        #expect(backend.render(frames[1], index: 1, placement: placement(frames[1])) == [], "the same pixels cost nothing")
    }

    @Test func aResizeDrawsTheWholeFrameAgain() {
        let frames = KittyBackendTests.clip(3)
        let small = KittyBackendTests.clip(3, width: 80, height: 48)
        let backend = ITerm2Backend(background: .none)
        var screen = ITerm2Screen(columns: 30, rows: 10)
        screen.feed(backend.render(frames[0], index: 0, placement: placement(frames[0])))
        backend.invalidate()
        let bytes = backend.render(small[1], index: 1, placement: placement(small[1], row: 1, column: 1))
        screen.feed(bytes)
        #expect(screen.region(placement(small[1], row: 1, column: 1)) == small[1])
        #expect(String(decoding: bytes, as: UTF8.self).contains("width=80px;height=48px"))
    }
}
