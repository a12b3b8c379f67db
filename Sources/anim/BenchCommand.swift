import AnimKit

/// `anim bench FILE [--runs N] [--json]`: decode speed, in process.
enum BenchCommand: Command {
    static let info = CommandInfo(
        name: "bench", summary: "time decoding every frame of a file",
        synopsis: [
            "FILE [--runs N] [--decode-ahead N] [--json]",
            "FILE --loops L [--fit WxH | --max-size N] [--cache-limit SIZE] [--json]",
        ],
        description: """
            Reads the file once, then decodes every frame (full canvas, composited) N
            times in this process, each pass indexing the bytes in memory anew, and prints
            the median and minimum milliseconds per pass, milliseconds per frame,
            megapixels per second and peak memory.

            With --loops, plays every frame in order L times through the frame cache,
            with prefetch, as a player does, and reports the frames decoded in each
            loop, the cache's peak bytes, hits and misses, and peak memory.
            """,
        groups: [
            OptionGroup(title: "options", options: [.runs, .decodeAhead, .benchJSON]),
            OptionGroup(title: "playing (--loops)", options: [.benchLoops, .benchFit, .maxSize, .cacheLimit]),
        ],
        operands: 1...1)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args[.benchLoops] != nil { return try BenchPlayback.run(args, path: args.operands[0]) }
        let runs = args.int(.runs) ?? 5
        let ahead = args.int(.decodeAhead) ?? DecodingOptions.defaultDecodeAhead
        let options = args.decoding(DecodingOptions(decodeAhead: ahead))
        let path = args.operands[0]
        let bytes = try ImageSource(path: path, options: options)  // read once; errors name the path
        var times: [Double] = []
        var checksum = 0
        for _ in 0..<runs {
            let start = Measure.milliseconds()
            let source = try bytes.reopened()
            for i in 0..<source.frameCount {
                checksum &+= try source.withFrame(at: i) { Int($0[$0.count / 2]) }
            }
            times.append(Measure.milliseconds() - start)
        }
        let sorted = times.sorted()
        let median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let frames = bytes.frameCount
        let megapixels = Double(bytes.width * bytes.height * frames) / 1e6
        let result: [(String, JSONValue)] = [
            ("file", .string(path)), ("format", .string(bytes.format.rawValue)),
            ("frames", .int(frames)), ("width", .int(bytes.width)), ("height", .int(bytes.height)),
            ("runs", .int(runs)), ("medianMs", .number(round3(median))), ("minMs", .number(round3(sorted[0]))),
            ("msPerFrame", .number(round3(median / Double(max(frames, 1))))),
            ("megapixelsPerSecond", .number(round3(megapixels / (median / 1000)))),
            ("peakRSSBytes", .int(Measure.peakRSS())), ("checksum", .int(checksum)),
        ]
        return print(
            result, args,
            text: """
                \(path): \(bytes.format.rawValue), \(bytes.width)x\(bytes.height), \(frames) frames, \(runs) runs
                  median \(round3(median)) ms per pass, min \(round3(sorted[0])) ms
                  \(round3(median / Double(max(frames, 1)))) ms per frame, \(round3(megapixels / (median / 1000))) megapixels/s
                  peak memory \(Measure.peakRSS() / 1_048_576) MiB

                """)
    }

    static func round3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

    /// `result` on one line with `--json`, else `text`; exit status 0.
    static func print(_ result: [(String, JSONValue)], _ args: ParsedArguments, text: @autoclosure () -> String) -> Int32 {
        Output.out(args.flag(.benchJSON) ? JSONValue.object(result).text + "\n" : text())
        return 0
    }
}

/// `anim bench FILE --loops L`: plays every frame in order through the frame
/// cache, as a player would, and reports what it cost.
enum BenchPlayback {
    static func run(_ args: ParsedArguments, path: String) throws -> Int32 {
        let loops = args.int(.benchLoops) ?? 2
        var options = args.decoding()
        if let fit = args[.benchFit] {
            let parts = fit.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
                throw UsageError(message: "--fit needs WxH, such as 160x96, not '\(fit)'")
            }
            options.fitIn = PixelSize(width: parts[0], height: parts[1])
        }
        if let n = args.int(.maxSize) { options.maxPixelSize = n }
        let limit =
            try args[.cacheLimit].map { try ByteSize.parse($0, option: "--cache-limit") }
            ?? FrameCache.defaultLimit
        let start = Measure.milliseconds()
        let source = try ImageSource(path: path, options: options)
        let frames = CachedFrameSource(source: source, limitBytes: limit)
        var perLoop: [Int] = []
        var checksum = 0
        for loop in 0..<loops {
            let before = frames.cache.statistics.framesDecoded
            for i in 0..<source.frameCount {
                let image = try frames.frame(at: i, wraps: loop < loops - 1)
                checksum &+= Int(image.pixels[image.pixels.count / 2])
            }
            frames.waitForPrefetch()
            perLoop.append(frames.cache.statistics.framesDecoded - before)
        }
        let elapsed = Measure.milliseconds() - start
        let s = frames.cache.statistics
        let result: [(String, JSONValue)] = [
            ("file", .string(path)), ("format", .string(source.format.rawValue)), ("frames", .int(source.frameCount)),
            ("width", .int(source.width)), ("height", .int(source.height)),
            ("outputWidth", .int(source.outputWidth)), ("outputHeight", .int(source.outputHeight)),
            ("loops", .int(loops)), ("decodedPerLoop", .array(perLoop.map { .int($0) })),
            ("cacheLimitBytes", .int(limit)), ("peakCacheBytes", .int(s.peakBytes)), ("cacheHits", .int(s.hits)),
            ("cacheMisses", .int(s.misses)), ("evictions", .int(s.evictions)),
            ("ms", .number(BenchCommand.round3(elapsed))), ("peakRSSBytes", .int(Measure.peakRSS())),
            ("checksum", .int(checksum)),
        ]
        return BenchCommand.print(
            result, args,
            text: """
                \(path): \(source.frameCount) frames at \(source.outputWidth)x\(source.outputHeight), \(loops) loops in \(BenchCommand.round3(elapsed)) ms
                  decoded per loop \(perLoop), cache peak \(s.peakBytes / 1024) KiB of \(limit / 1024) KiB, \(s.hits) hits, \(s.misses) misses, \(s.evictions) evictions
                  peak memory \(Measure.peakRSS() / 1_048_576) MiB

                """)
    }
}
