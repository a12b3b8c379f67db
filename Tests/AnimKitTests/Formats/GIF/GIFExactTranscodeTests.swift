import AnimTestSupport
import Foundation
import Testing

@testable import AnimKit

/// GIF to GIF without changing a pixel: every GIF fixture whose frames each
/// show at most 16 tables' colours comes back with the same frames, durations and
/// loop count (frames of 256 colours have no room for a transparent entry:
/// the writer then writes them whole).
struct GIFExactTranscodeTests {
    static let files: [String] =
        Fixtures.list("gif-suite", ext: "gif") + Fixtures.list("extra", ext: "gif") + Fixtures.list("gif-public", ext: "gif")
        + [demo]
    /// The project's own sample, by path from this file.
    static let demo = "/" + #filePath.split(separator: "/").dropLast(5).joined(separator: "/") + "/Animations/demo.gif"

    /// The public files that fit are all checked (a guard above cannot
    /// quietly skip them).
    @Test func thePublicFilesAreChecked() throws {
        for name in ["hopper", "palette_not_needed_for_second_frame", "no_palette_after_rgb", "transparent"] {
            let frames = allFrames(try Fixtures.source("gif-public/\(name).gif")).frames
            #expect(!frames.isEmpty && frames.allSatisfy { FuzzChecks.colors($0) <= 256 }, "\(name)")
        }
    }

    @Test(arguments: files)
    func everyPixelKept(_ path: String) throws { try check(path, DecodingOptions()) }

    /// The same, read and written as stored (every image a frame, delays
    /// as stored: `DecodingOptions.imagesAsStored`, as `anim convert` reads).
    @Test(arguments: files)
    func everyImageKept(_ path: String) throws { try check(path, .imagesAsStored) }

    func check(_ path: String, _ options: DecodingOptions) throws {
        let opened =
            path.hasPrefix("/")
            ? try? ImageSource(path: path, options: options) : try? Fixtures.source(path, options: options)
        guard let source = opened, source.frameCount > 0 else { return }
        let difference = FuzzChecks.gifRoundTrip(source, name: path)
        #expect(difference == nil, "\(difference ?? "")")
    }

    /// Frames of different colours that together fit one table: transcode
    /// scans them first and writes one global table, no local one, exactly.
    @Test func framesSharingATableGetOneGlobalTable() throws {
        let out = try ImageDestination(format: .gif)
        var frames: [RGBAImage] = []
        for f in 0..<4 {
            // 50 colours a frame, different in each: 200 in all.
            let px = (0..<(10 * 10)).flatMap { i -> [UInt8] in [UInt8(f * 60 + i % 50), UInt8(i % 50 * 5), 77, 255] }
            frames.append(RGBAImage(width: 10, height: 10, trusting: px))
            try out.add(frames[f], duration: .milliseconds(100))
        }
        try out.finish()
        // Written frame by frame without knowing the later colours: local tables.
        let streamed = try ImageSource(data: try #require(out.data))
        let report = try Transcoder(streamed, format: .gif).write(to: .memory)
        let data = try #require(report.data)
        let images = try data.withUnsafeBytes { try GIFParser(bytes: $0, file: "t", limits: DecodingLimits()).parse().images }
        #expect(images.count == 4 && images.allSatisfy { $0.palette.offset == 13 }, "every image uses the global table")
        let back = try ImageSource(data: data, options: Fixtures.merging)
        for i in 0..<4 { #expect(try back.frame(at: i) == frames[i], "frame \(i)") }
    }

    /// A frame of more colours than a table holds: with `exactColors`
    /// (on from GIF to GIF) it is written as several images, all but the
    /// last without delay, and every pixel comes back; without it, the
    /// frame is approximated.
    @Test func framesOfManyColoursAreSplitIntoImages() throws {
        // Frame 0: 600 colours; frame 1: 300 new colours in a 15×20 corner.
        let color = { (i: Int) -> [UInt8] in [UInt8(i % 256), UInt8(i / 256 * 60), UInt8(i % 7 * 30), 255] }
        let first = RGBAImage(width: 30, height: 20, trusting: (0..<600).flatMap { color($0) })
        var second = first
        for y in 0..<20 {
            for x in 0..<15 {
                let p = (y * 30 + x) * 4
                second.pixels.replaceSubrange(p..<(p + 4), with: color(600 + y * 15 + x))
            }
        }
        func write(exact: Bool) throws -> [UInt8] {
            var options = EncodingOptions()
            options.exactColors = exact
            let out = try ImageDestination(format: .gif, options: options)
            try out.add(first, duration: .milliseconds(120))
            try out.add(second, duration: .milliseconds(80))
            try out.finish()
            return try #require(out.data)
        }
        let data = try write(exact: true)
        let images = try data.withUnsafeBytes { try GIFParser(bytes: $0, file: "t", limits: DecodingLimits()).parse().images }
        // 600 colours: 255 + 255 + 90, three images; 300: 255 + 45, two.
        #expect(images.count == 5, "images")
        let back = try ImageSource(data: data, options: Fixtures.merging)
        #expect(back.frameCount == 2)
        #expect(back.frames.map(\.duration) == [.milliseconds(120), .milliseconds(80)])
        #expect(try back.frame(at: 0) == first, "frame 0 exact")
        #expect(try back.frame(at: 1) == second, "frame 1 exact")
        // GIF to GIF turns it on by itself.
        let again = try #require(try Transcoder(back, format: .gif).write(to: .memory).data)
        let kept = try ImageSource(data: again, options: Fixtures.merging)
        let kept0 = try kept.frame(at: 0)
        let kept1 = try kept.frame(at: 1)
        #expect(kept0 == first && kept1 == second, "transcoded exactly")
        // Off: one image a frame, approximated.
        let plain = try ImageSource(data: try write(exact: false))
        let plain0 = try plain.frame(at: 0)
        #expect(plain.frameCount == 2 && plain0 != first)
    }

    /// A frame split into several images is not restored to previous:
    /// GIF's disposal 3 would undo its last image only.
    @Test func aSplitFrameIsNotRestored() throws {
        let background = RGBAImage(
            width: 40, height: 30, trusting: (0..<1200).flatMap { i in [UInt8(i % 40 < 20 ? 30 : 200), 90, 90, 255] })
        var block = background  // 20×20 = 400 distinct colours
        for y in 0..<20 {
            for x in 0..<20 {
                let p = (y * 40 + x) * 4
                let c = y * 20 + x
                block.pixels.replaceSubrange(p..<(p + 4), with: [UInt8(c % 256), UInt8(c / 256 * 90 + 5), 17, 255])
            }
        }
        var sprite = background  // back to the background, a sprite elsewhere
        for y in 24..<28 {
            for x in 30..<34 {
                sprite.pixels.replaceSubrange(((y * 40 + x) * 4)..<((y * 40 + x) * 4 + 4), with: [255, 255, 0, 255])
            }
        }
        var options = EncodingOptions()
        options.exactColors = true
        let data = try ImageDestination.encode(
            [background, block, sprite], as: .gif, options: options, duration: .milliseconds(100))
        let back = try ImageSource(data: data, options: Fixtures.merging)
        #expect(back.frameCount == 3 && back.frames[1].dispose != .previous)
        let frames = try (0..<3).map { try back.frame(at: $0) }
        #expect(frames == [background, block, sprite])
    }
}
