// A client of AnimKit 1.x, migrated to 2.0: reads an animation every way 1.x offers, handles
// its errors, builds images, writes and converts, and drives the terminal
// player's API. Usage: client1 [FILE] [--play]
import AnimKit
import AnimKitFoundation
import AnimTerminal
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let path = arguments.first { !$0.hasPrefix("--") } ?? "Animations/demo.gif"
let outputFolder = NSTemporaryDirectory() + "animkit-client"
try? FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)

// MARK: - Errors

/// One line for any error, with the AnimError case spelled out.
func explain(_ error: any Error) -> String {
    guard let error = error as? AnimError else { return "other error: \(error)" }
    var line: String
    let file = error.file
    switch error.code {
    case .truncated:
        line = "truncated \(file) frame \(error.frame.map(String.init) ?? "-") at \(error.offset.map(String.init) ?? "-"): \(error.problem)"
    case .malformed:
        line = "malformed \(file) frame \(error.frame.map(String.init) ?? "-") at \(error.offset.map(String.init) ?? "-"): \(error.problem)"
    case .unsupported:
        line = "unsupported \(file): \(error.problem)"
    case .limitExceeded:
        guard let exceeded = error.problem as? LimitExceeded else { return "\(error)" }
        line = "\(file): \(exceeded.limit.field) is \(exceeded.value), over \(exceeded.maximum)"
        if exceeded.limit == .memory { line += " (raise DecodingLimits.maxMemory)" }
    case .library:
        guard let failure = error.problem as? LibraryFailure else { return "\(error)" }
        line = "\(failure.library) failed on \(file) frame \(error.frame.map(String.init) ?? "-"): \(failure.message)"
    case .io:
        guard let failure = error.problem as? IOFailure else { return "\(error)" }
        line = "cannot \(failure.operation) \(file): \(failure.message) (errno \(failure.errno))"
    case .frameOutOfRange:
        guard case .frameOutOfRange(let frame, let frameCount)? = error.problem as? CommonProblem else { return "\(error)" }
        line = "\(file): no frame \(frame) of \(frameCount)"
    default:   // AnimError.Code may gain kinds in 2.x
        line = "\(error)"
    }
    if let frame = error.frame { line += " [frame \(frame)]" }
    // AnimKitFoundation: the same message through Foundation.
    precondition(error.localizedDescription == error.description)
    return line
}

// MARK: - Opening

var options = DecodingOptions()
options.limits.maxMemory = 512 << 20
options.limits.maxFrameCount = 10_000
options.colorManagement = .sRGB
let source = try ImageSource(path: path, options: options)
let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
let fromData = try ImageSource(data: bytes, name: "download", options: options)
precondition(fromData.frameCount == source.frameCount)

let total = source.frames.reduce(Duration.zero) { $0 + $1.duration }
print("\(source.name): \(source.format) \(source.width)x\(source.height), \(source.frameCount) frames, \(total)")
switch source.plays {
case .forever: print("plays forever (loop count \(source.loopCount.map(String.init) ?? "none"))")
case .count(let n): print("plays \(n) times (\(source.plays.number))")
}
for info in source.frames.prefix(3) {
    print(info.index, info.rect, info.delay, info.duration, info.dispose, info.blend, info.isKeyframe, info.isComplete,
          info.imageRange.count)
}
let metadata = source.metadata
print("metadata: icc \(metadata.iccProfile?.count ?? 0) bytes, exif \(metadata.exif?.count ?? 0), xmp \(metadata.xmp != nil),",
      "text \(metadata.text.map { "\($0.keyword)=\($0.text)" }), empty \(metadata.isEmpty)")
let warningLines: [String] = source.warnings.map(\.description)
if !warningLines.isEmpty { print("warnings:", warningLines.joined(separator: "; ")) }
let colorSource: String = source.colorConversion?.description ?? "sRGB or untagged"
print("colours from", colorSource)
if let damage = source.indexError { print("damaged after the listed frames:", explain(damage)) }
print("memory:", source.minimumMemory, source.memoryFootprint, source.outputWidth, source.outputHeight)
let index: FrameIndex = source.index
print(index.format, index.width, index.height, index.plays, index.frames.count, index.warnings.count,
      index.error == nil, index.metadata.isEmpty, index.loopCount ?? -1)

// MARK: - Reading frames

// At random
let first = try source.frame(at: 0)
print("first frame", first.width, first.height, first.pixel(x: 0, y: 0))
let checksum = try source.withFrame(at: source.frameCount - 1) { raw in raw.reduce(0) { $0 &+ Int($1) } }
print("last frame checksum", checksum)

// In order, lazily
for i in 0..<source.frameCount where i % 4 == 0 {
    let info = source.frames[i]
    print(i, info.duration, info.isComplete, try source.frame(at: i).pixels.count)
}
let middle = source.frameCount / 2
print("middle", middle, try source.frame(at: middle).width)

// Off the caller's task
let async5 = try await source.decodeFrame(at: min(5, source.frameCount - 1))
print("async frame", async5.width)
var decodedCount = 0
for i in 0..<source.frameCount {
    let image = try await source.decodeFrame(at: i)
    precondition(source.frames[i].index == i && image.width == source.outputWidth)
    decodedCount += 1
}
print("decodedFrames:", decodedCount)

// As they fall due
let clock = ManualClock()
var played = 0
let playTask = Task {
    for try await frame in try source.playback(plays: .count(1), speed: 50, mode: .forward, cacheBytes: 32 << 20) {
        played += 1 + frame.skipped
        _ = (frame.index, frame.info.duration, frame.image.width, frame.nextDeadline)
    }
    return played
}
print("playback frames:", try await playTask.value)

// A scheduler driven by hand
let scheduler = FrameScheduler(durations: source.frames.map(\.duration), plays: .count(1), mode: .pingPong, clock: clock)
var shown: [Int] = []
while true {
    let tick = scheduler.tick()
    if shown.last != tick.frame { shown.append(tick.frame) }
    guard let next = tick.nextDeadline, !tick.finished else { break }
    clock.set(next)
}
print("scheduler showed", shown.count, "of", scheduler.frameCount, "skipped", scheduler.totalSkipped)

// Through a cache, at display size
var small = DecodingOptions(decodeAhead: 0)
small.fitIn = PixelSize(width: 48, height: 48)
let cached = CachedFrameSource(source: try source.sharingIndex(options: small), limitBytes: 8 << 20)
let thumb = try cached.frame(at: 1 % source.frameCount, direction: .forward, wraps: true)
let stats: FrameCache.Statistics = cached.cache.statistics
// (Not stats.bytesInUse: frames decoded ahead into the cache arrive while it is read.)
print("thumbnail", thumb.width, thumb.height, "cache", stats.hits, stats.misses, cached.frameCost)
let again = try source.reopened()
let preview = try ImageSource.opening(path: path, throughFrame: 0)
print("reopened", again.frameCount, "preview", preview.frameCount)

// Bytes as they arrive
let stream = IncrementalImageSource(name: "download", options: DecodingOptions())
stream.append(bytes.prefix(bytes.count / 2))
switch try stream.frame(at: 0) {
case .frame(let image): print("streamed first frame", image.width)
case .notYetAvailable: print("first frame not yet")
}
stream.append(bytes.dropFirst(bytes.count / 2))
stream.finish()
print("stream:", stream.frameCount, stream.byteCount, stream.isFinished, stream.error.map(explain) ?? "complete",
      stream.source?.frameCount ?? 0)

// MARK: - Errors

do {
    _ = try source.frame(at: source.frameCount + 10)
} catch let error as AnimError {
    if case .frameOutOfRange(let frame, _)? = error.problem as? CommonProblem { print("out of range:", frame) }
    print(explain(error))
}
do {
    var tight = DecodingOptions()
    tight.limits.maxCanvasPixels = 4
    _ = try ImageSource(path: path, options: tight)
} catch let error as AnimError where error.problem is LimitExceeded {
    if let exceeded = error.problem as? LimitExceeded {
        print("limit \(exceeded.limit) in \(error.file): \(exceeded.value) > \(exceeded.maximum)")
    }
} catch {
    print(explain(error))
}
do {
    _ = try ImageSource(data: [0x47, 0x49, 0x46], name: "short")
} catch {
    // (1.x compared with a made-up detail "x": here a problem it is not.)
    print(explain(error), (error as? AnimError) == AnimError(file: "short", offset: 3, GIFProblem.headerIncomplete))
}

// MARK: - Images

let red = try RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 255, 0, 0, 255])
let blank = RGBAImage(width: 2, height: 1)
do {
    _ = try RGBAImage(width: 3, height: 3, pixels: [0, 0, 0])
} catch {
    print("refused:", explain(error))
}
let checked = try RGBAImage(width: 2, height: 1, pixels: red.pixels)
print(checked == red, blank.pixel(x: 1, y: 0), FrameDiff.changedRect(red, blank) ?? Rect(x: 0, y: 0, width: 0, height: 0))

// MARK: - Writing

var encoding = EncodingOptions()
encoding.plays = 0
encoding.quality = 80
encoding.gif.dither = .floydSteinberg
encoding.maxColors = 128                   // through dynamic member lookup to gif
encoding.webp.lossless = true
encoding.metadata = source.metadata
try encoding.check(for: .gif, file: "stripes.gif")
print("lost in gif:", source.metadata.lost(in: .gif), "max plays", EncodingOptions.maximumPlays(in: .gif))
let gifPath = outputFolder + "/stripes.gif"
let destination = try ImageDestination(path: gifPath, options: encoding)
for f in 0..<8 {
    var pixels = [UInt8](repeating: 255, count: 32 * 16 * 4)
    for x in 0..<32 where (x + f) % 8 < 4 { for y in 0..<16 { pixels[(y * 32 + x) * 4 + 1] = 0 } }
    try destination.add(RGBAImage(width: 32, height: 16, pixels: pixels), duration: .milliseconds(80))
}
try destination.finish()
print("wrote", destination.framesAdded, destination.framesWritten, destination.bytesWritten, destination.format)

let memory = try ImageDestination(format: .webp, options: encoding)
for n in 0..<source.frameCount { try memory.add(try source.frame(at: n), duration: source.frames[n].duration) }
try memory.finish()
let written = memory.framesAdded
print("in memory:", written, memory.data?.count ?? 0,
      ImageDestination.memoryFootprint(format: .webp, width: source.width, height: source.height))

// Converting
let report = try Transcoder(source, format: .webp, options: encoding, keepingPlays: true, keepingMetadata: true)
    .write(to: .memory) { event in
        if case .frames(let done, let of) = event, done == of { print("transcoded \(done) frames") }
    }
print(report.frames, report.data?.count ?? 0, report.adjustments.map(\.description), report.sourceError == nil)
let toFile = try Transcoder(source, format: .apng).write(to: .path(outputFolder + "/copy.png"))
print(toFile.frames, toFile.adjustments.map(\.description), EncodingOptions.plays(source.plays, in: .apng).plays)

// Edited frames
let edits = FrameEdits(
    frames: FrameSelection("0-3"), speed: 2, reverse: true,
    geometry: FrameGeometry(size: .resize(width: 16, height: nil)))
let timeline = try edits.timeline(durations: source.frames.map(\.duration))
let reshaper = try FrameReshaper(edits.geometry, width: source.outputWidth, height: source.outputHeight)
let editedOut = try ImageDestination(path: outputFolder + "/edited.gif", options: encoding)
for entry in timeline.entries { try editedOut.add(reshaper.apply(try source.frame(at: entry.frame)), duration: entry.duration) }
try editedOut.finish()
print("edited", timeline.entries.count, reshaper.width, reshaper.height, timeline.total)

// MARK: - Terminal

var player = PlayerOptions()
player.showStatus = true
player.columns = 40
player.timing.speed = 2
player.cacheLimit = 16 << 20
let terminal = TerminalProbe.detect(
    environment: TerminalProbe.processEnvironment(), input: 0, output: 1, timeoutMs: 50)
print("terminal:", terminal.needsPassthrough(.kitty))
if arguments.contains("--play") {
    do {
        let statistics = try Player(source: source, name: path, options: player, terminal: terminal).run()
        print(statistics)
    } catch let error as PlayerError {
        switch error {
        case .framesOutside(let range, let count): print("frames \(range) outside \(count)")
        case .gridDoesNotFit(let files, let columns, let rows): print("\(files) files, \(columns)x\(rows)")
        }
    }
}
