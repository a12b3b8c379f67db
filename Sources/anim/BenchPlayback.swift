import AnimKit

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
