import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

/// The pane's cache holds two frames while the terminal keeps them all,
/// and grows back to its full size once the terminal stops keeping them.
struct PaneCacheTests {
    /// A backend whose terminal keeps frames until told otherwise.
    final class Keeper: FrameBackend {
        var keepsFrames = true
        var resolution: BackendResolution { .pixels }
        func render(_ image: RGBAImage, index: Int, placement: Placement) -> [UInt8] { [0x41] }
        func invalidate() {}
    }

    @Test func theCacheFollowsWhetherTheTerminalKeepsFrames() throws {
        let source = try ImageSource(path: Repository.demo, options: DecodingOptions(decodeAhead: 0))
        let backend = Keeper()
        var options = PlayerOptions()
        options.timing.noWait = true
        let pane = try Pane(
            (source, nil, true, "demo"), options: options, backend: backend, clock: PlaybackClock(ManualClock(start: 0)))
        pane.layout.placement = Placement(
            row: 1, column: 1, columns: 12, rows: 4, pixels: PixelSize(width: 96, height: 64),
            cell: CellGeometry(width: 8, height: 16))
        try pane.openFrames(cacheLimit: nil, memory: 1 << 40)
        let frameBytes = 96 * 64 * 4
        #expect(pane.frames.cache.limitBytes == 2 * frameBytes, "two frames while the terminal keeps them")
        #expect(try pane.render(0) == [0x41])
        #expect(pane.frames.cache.limitBytes == 2 * frameBytes)
        backend.keepsFrames = false
        #expect(try pane.render(1) == [0x41])
        #expect(pane.frames.cache.limitBytes == FrameCache.defaultLimit, "the full cache once it does not")
    }
}
