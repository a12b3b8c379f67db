import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

/// A resize opens the pane's frames at the new size from the index the
/// file was opened with: the bytes are not indexed again.
struct PaneResizeTests {
    final class Plain: FrameBackend {
        var keepsFrames: Bool { false }
        var resolution: BackendResolution { .pixels }
        func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] { [UInt8(image.width & 0xFF)] }
        func invalidate() {}
    }

    static func placement(_ width: Int, _ height: Int) -> Placement {
        Placement(
            row: 1, column: 1, columns: width / 8, rows: height / 16, pixels: PixelSize(width: width, height: height),
            cell: CellGeometry(width: 8, height: 16))
    }

    @Test func aResizeDoesNotIndexTheFileAgain() throws {
        let source = try ImageSource(path: Repository.demo)
        #expect(source.indexPasses == 1)
        var options = PlayerOptions()
        options.timing.noWait = true
        let pane = try Pane(
            (source, nil, true, "demo"), options: options, backend: Plain(), clock: PlaybackClock(ManualClock(start: 0)))
        for (width, height) in [(96, 64), (48, 32), (160, 96)] {
            pane.layout.placement = Self.placement(width, height)
            try pane.openFrames(cacheLimit: nil, memory: 1 << 40)  // what `Player.layOut` does on a resize
            #expect(try pane.render(0) == [UInt8(pane.frames.source.outputWidth)])
            #expect(pane.frames.source.outputWidth <= width && pane.frames.source.outputHeight <= height)
        }
        #expect(source.indexPasses == 1, "three sizes, one index pass")
        #expect(pane.frames.source.indexPasses == 1)
        #expect(pane.frames.source.index.frames == source.frames)
    }
}
