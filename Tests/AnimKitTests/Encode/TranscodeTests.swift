import AnimKit
import AnimTestSupport
import Foundation
import Testing

/// The library's one transcoder, and the async reads.
struct TranscodeTests {
    static let formats: [OutputFormat] = [.gif, .apng, .webp]

    @Test(arguments: formats)
    func inMemoryKeepsFramesDurationsAndPlays(_ format: OutputFormat) throws {
        let source = try Fixtures.source("webp/loop-3.webp")
        var options = EncodingOptions()
        options.lossless = true
        let report = try Transcoder(source, format: format, options: options).write(to: .memory)
        let data = try #require(report.data)
        let back = try ImageSource(data: data)
        #expect(report.frames == source.frameCount)
        #expect(report.adjustments.isEmpty && report.sourceError == nil)
        #expect(back.plays == source.plays, "\(format): plays \(back.plays) vs \(source.plays)")
        #expect(back.frames.map(\.duration).reduce(.zero, +) == source.frames.map(\.duration).reduce(.zero, +))
        if format != .gif {  // GIF quantises; the others are lossless here
            for i in 0..<back.frameCount { #expect(try back.frame(at: i) == source.frame(at: i), "\(format) frame \(i)") }
        } else {
            // GIF: transparency where the source is transparent, colours close.
            for i in 0..<back.frameCount {
                let (a, b) = (try source.frame(at: i), try back.frame(at: i))
                var error = 0
                var opaque = 0
                for p in stride(from: 0, to: a.pixels.count, by: 4) {
                    #expect((a.pixels[p + 3] >= 128) == (b.pixels[p + 3] == 255), "frame \(i) alpha at \(p / 4)")
                    guard a.pixels[p + 3] == 255 else { continue }
                    opaque += 1
                    for c in 0..<3 { error += abs(Int(a.pixels[p + c]) - Int(b.pixels[p + c])) }
                }
                let mean = Double(error) / Double(max(opaque * 3, 1))
                #expect(mean < 4, "frame \(i): mean error \(mean) per channel")
            }
        }
    }

    @Test func toAFile() throws {
        let source = try Fixtures.source("extra/long.gif")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("transcode-\(getpid()).png").path
        defer { unlink(path) }
        let report = try Transcoder(source, format: .apng).write(to: .path(path))
        let back = try ImageSource(path: path)
        #expect(back.format == .apng && report.frames == source.frameCount)
        #expect(try back.frame(at: 17) == source.frame(at: 17))
    }

    @Test func playsTheFormatCannotHoldAreClampedAndSaid() {
        #expect(EncodingOptions.plays(.count(65536), in: .webp).plays == 65535)
        #expect(EncodingOptions.plays(.count(65536), in: .webp).adjustment?.description.contains("65535") == true)
        #expect(EncodingOptions.plays(.count(65536), in: .gif) == (65536, nil))
        #expect(EncodingOptions.plays(.forever, in: .webp) == (0, nil))
        #expect(EncodingOptions.plays(.count(3), in: .apng) == (3, nil))
    }

    @Test func aSizeLimitTakesTheFirstSettingThatFitsAndListsEachTried() throws {
        let transcoder = try Transcoder(try Fixtures.source("extra/long.gif"), format: .gif)
        let whole = try #require(try transcoder.write(to: .memory).data).count
        var steps: [Int] = []
        let report = try transcoder.write(fitting: whole / 2) { if case .step(let i, _) = $0 { steps.append(i) } }
        let setting = try #require(report.setting)
        #expect(try #require(report.data).count <= whole / 2)
        #expect(report.attempts.map(\.step) == steps && steps.first == 0 && report.attempts[0].bytes > whole / 2)
        #expect(report.attempts.contains { $0.setting == setting && $0.bytes == report.data?.count })
        let none = try transcoder.write(fitting: 10)
        #expect(none.setting == nil && none.data == nil && none.attempts.last?.bytes ?? 0 > 10)
    }

    @Test func settingsAndAdjustmentsSayThemselvesWithoutOptionNames() {
        let ladder = SizeLadder.settings(format: .gif, options: EncodingOptions())
        #expect(ladder.first?.description == "as given")
        #expect(ladder.last?.description == "lossy 200, 16 colours, frame rate ×0.5, scale 0.125")
        let plays = TranscodeAdjustment.plays(70000, writtenAs: 65535, format: .webp)
        #expect(plays.description == "plays 70000 times, more than WEBP can say: written as 65535")
        #expect(TranscodeAdjustment.notKept("EXIF (5 bytes)").description == "not kept: EXIF (5 bytes)")
    }

    @Test func aTruncatedSourceWritesWhatItHasAndSaysWhy() throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.url("webp/lossless-anim-alpha.webp")))
        let source = try ImageSource(data: Array(bytes.dropLast(20)))
        let report = try Transcoder(source, format: .apng).write(to: .memory)
        #expect(report.frames == source.frameCount && report.frames > 0)
        #expect(report.sourceError != nil)
        #expect(try ImageSource(data: report.data!).frameCount == report.frames)
    }

    @Test func asyncFramesEqualTheSyncOnes() async throws {
        let source = try Fixtures.source("extra/long.gif")
        let reference = try Fixtures.source("extra/long.gif")
        for i in 0..<source.frameCount {
            #expect(try await source.decodeFrame(at: i) == (try reference.frame(at: i)), "frame \(i)")
        }
    }

    @Test func incrementalFedFromAnAsyncSequence() async throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.url("extra/long.gif")))
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 4096) {
                continuation.yield(Array(bytes[start..<min(start + 4096, bytes.count)]))
            }
            continuation.finish()
        }
        let stream = IncrementalImageSource(name: "async")
        try await stream.append(contentsOf: chunks)
        #expect(stream.isFinished && stream.error == nil)
        #expect(stream.frameCount == (try ImageSource(data: bytes).frameCount))
    }
}

/// Options out of range are refused before anything is written, the same
/// way by every format, naming the output.
struct EncodingOptionsCheckTests {
    static let bad: [(String, @Sendable (inout EncodingOptions) -> Void)] = [
        ("quality", { $0.quality = 101 }), ("quality", { $0.quality = -1 }),
        ("colours", { $0.maxColors = 1 }), ("colours", { $0.maxColors = 257 }),
        ("play count", { $0.plays = -1 }), ("keyframe interval", { $0.keyframeInterval = -2 }),
        ("frame count", { $0.frameCount = 0 }), ("default duration", { $0.defaultDuration = .milliseconds(-5) }),
    ]

    @Test(arguments: [OutputFormat.gif, .apng, .webp])
    func everyFormatRefusesTheSameOptions(_ format: OutputFormat) {
        for (what, spoil) in Self.bad {
            var options = EncodingOptions()
            spoil(&options)
            do {
                _ = try ImageDestination(format: format, options: options, name: "upload-42")
                Issue.record("\(format): \(what) accepted")
            } catch let error as AnimError {
                guard error.code == .unsupported, error.problem is EncodingProblem else {
                    Issue.record("\(format): \(error)")
                    continue
                }
                #expect(error.file == "upload-42", "the caller's label, not <memory>")
                #expect("\(error.problem)".contains(what), "\(format): \(error.problem)")
            } catch { Issue.record("\(error)") }
        }
        // The largest play count each format stores is accepted, one more is not.
        var options = EncodingOptions()
        options.plays = EncodingOptions.maximumPlays(in: format)
        #expect(throws: Never.self) { _ = try ImageDestination(format: format, options: options) }
        options.plays += 1
        #expect(throws: AnimError.self) { _ = try ImageDestination(format: format, options: options) }
        #expect(EncodingOptions.maximumPlays(in: .apng) == 2_147_483_647, "PNG's four-byte integers are at most 2³¹ − 1")
    }
}
