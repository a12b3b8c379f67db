import AnimKit
import AnimTerminal
import Foundation
import Glibc
import Testing

/// Not a test: with `ANIM_SIXEL_BENCH=DIR` set, writes small deterministic
/// clips (`DIR/CLIP/frame-NNN.ppm`), the sixel backend's bytes for each
/// frame (`anim-NNN.six`, to be fed to a terminal one after the other) and
/// its time per frame (`anim-times.txt`, nanoseconds of this thread's CPU
/// time, so that other work on the machine does not count), for
/// `Tools/bench/sixel/compare.sh`, which sets it and compares with chafa.
struct SixelBenchTests {
    typealias F = SixelFixtures

    static let directory = ProcessInfo.processInfo.environment["ANIM_SIXEL_BENCH"]

    /// The clips: a sprite over a still photograph, a photograph in full
    /// motion, flat colours with a few moving shapes, and a larger motion clip.
    static func clips() -> [(name: String, frames: [RGBAImage])] {
        let still = F.photo(320, 240, seed: 11)
        let sprite = (0..<24).map { i in
            var frame = still
            F.fill(&frame, Rect(x: 20 + 9 * i, y: 30 + 5 * i, width: 24, height: 24), (255, 40, 40))
            F.fill(&frame, Rect(x: 26 + 9 * i, y: 36 + 5 * i, width: 12, height: 12), (20, 20, 255))
            return frame
        }
        let motion = (0..<24).map { F.photo(320, 240, phase: Double($0) * 0.08, seed: UInt64(100 + $0)) }
        let palette = F.colors(48, seed: 5)
        let ground = F.blocks(320, 240, palette: palette, seed: 9)
        let cartoon = (0..<24).map { i in
            var frame = ground
            for k in 0..<4 {
                F.fill(&frame, Rect(x: (40 * k + 7 * i) % 300, y: 20 + 50 * k, width: 30, height: 20), palette[k])
            }
            return frame
        }
        let large = (0..<12).map { F.photo(640, 480, phase: Double($0) * 0.08, seed: UInt64(200 + $0)) }
        return [("sprite", sprite), ("motion", motion), ("cartoon", cartoon), ("motion640", large)]
    }

    @Test(.enabled(if: directory != nil)) func writeClips() throws {
        let root = URL(fileURLWithPath: Self.directory!)
        for clip in Self.clips() {
            let dir = root.appendingPathComponent(clip.name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let w = clip.frames[0].width
            let h = clip.frames[0].height
            let cell = CellGeometry(width: 10, height: 20)
            let placement = F.placement(w, h, cell: cell)
            let backend = SixelBackend(background: .none)
            var times: [String] = []
            for (i, frame) in clip.frames.enumerated() {
                let name = String(format: "%03d", i)
                try Self.ppm(frame).write(to: dir.appendingPathComponent("frame-\(name).ppm"))
                let start = Self.cpuTime()
                let bytes = backend.render(frame, index: i, placement: placement)
                times.append(String(Self.cpuTime() - start))
                try Data(bytes).write(to: dir.appendingPathComponent("anim-\(name).six"))
            }
            try (times.joined(separator: "\n") + "\n").write(
                to: dir.appendingPathComponent("anim-times.txt"),
                atomically: true, encoding: .utf8)
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("anim-000.six").path))
        }
    }

    /// This thread's CPU time in nanoseconds.
    static func cpuTime() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }

    /// A binary PPM (the frames are opaque).
    static func ppm(_ image: RGBAImage) -> Data {
        var out = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        out.reserveCapacity(out.count + image.width * image.height * 3)
        for i in 0..<(image.width * image.height) { out.append(contentsOf: image.pixels[(4 * i)..<(4 * i + 3)]) }
        return out
    }
}
