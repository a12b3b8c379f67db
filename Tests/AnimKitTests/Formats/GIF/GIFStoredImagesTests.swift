import AnimTestSupport
import Testing

@testable import AnimKit

/// `DecodingOptions.imagesAsStored`: every GIF image a frame with its stored
/// delay; GIF to GIF from such a source keeps the images, the delays (0 and
/// 1 cs too) and the restore-to-previous structure.
struct GIFStoredImagesTests {
    static let asStored = DecodingOptions.imagesAsStored

    /// gif-suite `animation-multi-image`: a zero-delay image drawn with the
    /// next one is one frame merged, two unmerged.
    @Test func unmergedEveryImageIsAFrame() throws {
        let merged = try Fixtures.source("gif-suite/animation-multi-image.gif", options: Fixtures.merging)
        let stored = try Fixtures.source("gif-suite/animation-multi-image.gif", options: Self.asStored)
        let images = merged.frames.map(\.imageRange.count).reduce(0, +)
        #expect(merged.frameCount < images)
        #expect(stored.frameCount == images)
        #expect(stored.frames.allSatisfy { $0.imageRange.count == 1 })
        #expect(stored.frames.map(\.duration).contains(.zero))
    }

    /// Pillow's `dispose_prev.gif`: a background image without delay, then
    /// four 32×32 sprites each restored to it. Merged, the first sprite is
    /// part of frame 0 and cannot be undone, so every later frame must erase
    /// it (1982 bytes; gifsicle -O3, which keeps images, 1888). Read as
    /// stored, the rewrite keeps the five images and their disposals.
    @Test func aBackgroundWithoutDelayAndRestoredSprites() throws {
        let bytes = try Fixtures.bytes("gif-public/dispose_prev.gif")
        let source = try ImageSource(data: bytes, name: "dispose_prev.gif", options: Self.asStored)
        #expect(source.frameCount == 5)
        let report = try Transcoder(source, format: .gif).write(to: .memory)
        let data = try #require(report.data)
        #expect(data.count < 1888, "\(data.count) bytes")
        let back = try ImageSource(data: data, name: "out.gif", options: Self.asStored)
        #expect(back.frames.map(\.duration) == source.frames.map(\.duration))
        #expect(back.frames.map(\.duration) == [.zero] + Array(repeating: .seconds(1), count: 4))
        #expect(back.frames[1...3].allSatisfy { $0.dispose == .previous })
        #expect(back.frames[1...4].allSatisfy { $0.rect.width == 32 && $0.rect.height == 32 })
        for i in 0..<source.frameCount {
            #expect(try back.frame(at: i).pixels == source.frame(at: i).pixels, "frame \(i)")
        }
    }

    /// Delays of 0 and 1 cs are written as stored (browsers play both as
    /// 100 ms, from the source as from the copy); without `storedDelays`
    /// a delay is at least 2 cs.
    @Test func storedDelaysKeepZeroAndOneCentisecond() throws {
        let red = RGBAImage(width: 4, height: 4, trusting: Array(repeatElement([255, 0, 0, 255] as [UInt8], count: 16).joined()))
        let blue = RGBAImage(
            width: 4, height: 4, trusting: Array(repeatElement([0, 0, 255, 255] as [UInt8], count: 16).joined()))
        let durations: [Duration] = [.zero, .milliseconds(10), .milliseconds(30)]
        func written(stored: Bool) throws -> [Duration] {
            var options = EncodingOptions()
            options.storedDelays = stored
            let destination = try ImageDestination(format: .gif, options: options)
            for (i, d) in durations.enumerated() { try destination.add(i % 2 == 0 ? red : blue, duration: d) }
            try destination.finish()
            return try ImageSource(data: try #require(destination.data), options: Self.asStored).frames.map(\.duration)
        }
        #expect(try written(stored: true) == durations)
        #expect(try written(stored: false) == Array(repeating: .milliseconds(20), count: 3))
    }

    /// `ShownComparison` (what `anim optimize` checks) matches frames of no
    /// duration with their counterparts: the same file shows no difference,
    /// one whose zero-delay image changed shows it at that frame.
    @Test func framesOfNoDurationAreCompared() throws {
        let pixel = { (r: UInt8, g: UInt8, b: UInt8) in
            RGBAImage(width: 4, height: 4, trusting: Array(repeatElement([r, g, b, 255], count: 16).joined()))
        }
        func gif(_ frames: [RGBAImage]) throws -> ImageSource {
            var options = EncodingOptions()
            options.storedDelays = true
            let destination = try ImageDestination(format: .gif, options: options)
            for (i, f) in frames.enumerated() { try destination.add(f, duration: i % 2 == 0 ? .zero : .seconds(1)) }
            try destination.finish()
            return try ImageSource(data: try #require(destination.data), options: Self.asStored)
        }
        let a = try gif([pixel(255, 0, 0), pixel(0, 0, 255), pixel(0, 255, 0), pixel(9, 9, 9)])
        let b = try gif([pixel(255, 0, 0), pixel(0, 0, 255), pixel(0, 255, 0), pixel(9, 9, 9)])
        let c = try gif([pixel(255, 0, 0), pixel(0, 0, 255), pixel(0, 250, 0), pixel(9, 9, 9)])
        #expect(a.frameCount == 4 && a.frames[2].duration == .zero)
        #expect(try ShownComparison.compare(a, b).firstDifferent == nil)
        #expect(try ShownComparison.compare(a, c).firstDifferent == 2)
    }
}
