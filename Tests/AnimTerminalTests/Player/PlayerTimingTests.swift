import AnimKit
import AnimTestSupport
import Testing

@testable import AnimTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// The player, not on a terminal, on a manual clock: each format's per-frame
/// delays put the right frame on screen at the right time, and the bytes it
/// writes draw exactly that frame.
struct PlayerTimingTests {

    struct Played {
        var stats: PlayerStatistics
        var bytes: [UInt8]
    }

    /// Runs `body` with a temporary file's descriptor as the output; its
    /// result and the bytes written.
    static func writingToFile<R>(_ body: (Int32) throws -> R) throws -> (R, [UInt8]) {
        var template = Array("/tmp/anim-player-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        #expect(fd >= 0)
        defer {
            close(fd)
            _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        }
        let result = try body(fd)
        let size = Int(lseek(fd, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: size)
        #expect(pread(fd, &bytes, size, 0) == size)
        return (result, bytes)
    }

    /// Plays `path` fitted into `columns`×`rows`, writing into a temporary file.
    func play(_ path: String, columns: Int = 16, rows: Int = 8, loops: Int = 1, speed: Double = 1) throws -> Played {
        let (stats, bytes) = try Self.writingToFile { fd in
            var options = PlayerOptions()
            options.columns = columns
            options.rows = rows
            options.presentation = .plain
            options.timing.loops = loops
            options.timing.speed = speed
            options.output = fd
            options.recordFrames = true
            options.look.colorTolerance = 0  // drawn exactly, to compare cells
            let clock = ManualClock(start: 1_000_000_000)
            return try Player(source: try ImageSource(path: path), name: "test", options: options, clock: clock).run()
        }
        return Played(stats: stats, bytes: bytes)
    }

    /// Frames shown in order at `expectedMs` after the start, each drawn exactly.
    func check(_ path: String, frames: [Int], at expectedMs: [Int64], loops: Int = 1, speed: Double = 1) throws {
        let played = try play(path, loops: loops, speed: speed)
        let shown = played.stats.shownFrames
        #expect(shown.map(\.frame) == frames, "\(path): frames shown")
        #expect(shown.map { $0.time / 1_000_000 } == expectedMs, "\(path): times shown")
        #expect(played.stats.framesDropped == 0)
        #expect(played.stats.bytesWritten == played.bytes.count)
        // The screen after each frame's bytes is that frame at cell size.
        var decoding = DecodingOptions()
        decoding.fitIn = PixelSize(width: 16, height: 16)
        let reference = try ImageSource(path: path, options: decoding)
        var screen = ANSIScreen(columns: 16, rows: 8)
        var offset = 0
        for s in shown {
            screen.feed(Array(played.bytes[offset..<s.byteEnd]))
            offset = s.byteEnd
            let grid = CellGrid(image: try reference.frame(at: s.frame), background: .none, mode: .trueColor)
            #expect(screen.errors.isEmpty)
            #expect(screen.region(grid) == grid.cells, "\(path): frame \(s.frame) at \(s.time / 1_000_000) ms is not drawn right")
        }
    }

    @Test func gifPerFrameDelays() throws {
        // animation-speed.gif: frames of 250, 500, 1000 and 2000 ms.
        try check(Fixtures.path("gif-suite/animation-speed.gif"), frames: [0, 1, 2, 3], at: [0, 250, 750, 1750])
    }

    @Test func apngPerFrameDelays() throws {
        // 029.png: delays 100, 500, 1000 ms (num/den forms), four frames.
        let source = try ImageSource(path: Fixtures.path("apng-suite/029.png"))
        let durations = source.frames.map {
            Int64($0.duration.components.seconds * 1000 + $0.duration.components.attoseconds / 1_000_000_000_000_000)
        }
        let starts = durations.indices.map { durations[..<$0].reduce(0, +) }
        #expect(Set(durations).count >= 3, "the fixture must mix delays: \(durations)")
        try check(Fixtures.path("apng-suite/029.png"), frames: Array(0..<source.frameCount), at: starts)
    }

    @Test func webpPerFrameDelays() throws {
        // gif2webp-transparent.webp: 4 frames of 100, 150, 200 ... ms.
        let source = try ImageSource(path: Fixtures.path("webp/gif2webp-transparent.webp"))
        let durations = source.frames.map {
            Int64($0.duration.components.seconds * 1000 + $0.duration.components.attoseconds / 1_000_000_000_000_000)
        }
        #expect(Set(durations) == [100, 150, 200])
        let starts = durations.indices.map { durations[..<$0].reduce(0, +) }
        try check(Fixtures.path("webp/gif2webp-transparent.webp"), frames: [0, 1, 2, 3], at: starts)
    }

    @Test func twoLoopsAtDoubleSpeed() throws {
        // animation-speed.gif twice at 2x: 125, 250, 500, 1000 ms a frame.
        try check(
            Fixtures.path("gif-suite/animation-speed.gif"), frames: [0, 1, 2, 3, 0, 1, 2, 3],
            at: [0, 125, 375, 875, 1875, 2000, 2250, 2750], loops: 2, speed: 2)
    }
}

/// Issue 27, part 4: a grid that cannot hold the files is an error, not a
/// stopped process.
struct PlayerGridErrorTests {
    @Test func aGridTooSmallThrows() throws {
        let source = try ImageSource(path: Fixtures.path("gif-suite/255-codes.gif"))
        let three = Array(repeating: (source: source, name: "a"), count: 3)
        #expect(throws: PlayerError.gridDoesNotFit(files: 3, columns: 1, rows: 2)) {
            _ = try Player(sources: three, options: PlayerOptions(), grid: (1, 2), titles: false)
        }
        #expect(throws: PlayerError.gridDoesNotFit(files: 0, columns: 2, rows: 2)) {
            _ = try Player(sources: [], options: PlayerOptions(), grid: (2, 2), titles: false)
        }
        #expect("\(PlayerError.gridDoesNotFit(files: 3, columns: 1, rows: 2))" == "3 files for a grid of 1x2")
    }
}
