// What the fuzz targets do with one input, shared by the libFuzzer
// targets (Tools/fuzz, built with AnimKit's sources as one module) and the
// regression tests (FuzzRegressionTests), which replay every finding.
#if canImport(AnimKit)
    @testable import AnimKit
#endif
#if canImport(AnimTestSupport)
    import AnimTestSupport
#endif

enum FuzzChecks {
    /// Arbitrary bytes as one GIF image's LZW data, decoded by anim's LZW
    /// decoder, giflib and the textbook decoder (`LZWOracle`): a difference
    /// is a finding. The first byte picks the minimum code size (1-11), the
    /// next two the image's size; the rest is the code stream, in sub-blocks.
    static func lzw(_ bytes: [UInt8]) {
        guard bytes.count >= 3 else { return }
        let minSize = 1 + Int(bytes[0]) % 11
        let width = 1 + Int(bytes[1])
        let height = 1 + Int(bytes[2]) % 64
        var data: [UInt8] = [UInt8(minSize)]
        var rest = bytes.dropFirst(3)
        while !rest.isEmpty {
            let block = rest.prefix(255)
            data += [UInt8(block.count)] + block
            rest = rest.dropFirst(block.count)
        }
        data.append(0)
        var result = LZWOracle.Comparison()
        LZWOracle.compare(
            LZWOracle.file(width: width, height: height, bits: min(minSize, 8), data: data), name: "input", into: &result)
        if !result.differing.isEmpty { fatalError(result.differing.joined(separator: "; ")) }
    }

    /// What `pngPaths` compared: frames, and how many of them the fast
    /// path decoded (the others it handed to libpng).
    struct PNGPathCount { var frames = 0, fast = 0, differences: [String] = [] }

    /// A PNG's frames decoded by the fast path (`pngfast.c`: libdeflate and
    /// anim's unfiltering) and by libpng alone: the same success, the same
    /// pixels and on failure the same rows; a difference is a finding
    /// (`decode` traps on one).
    static func pngPaths(_ bytes: [UInt8], limits: DecodingLimits = DecodingLimits()) -> PNGPathCount {
        var count = PNGPathCount()
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return count }
        let store = ByteStore(bytes)
        guard let index = try? APNGContainer.index(store, file: "input", limits: limits),
            let decoder = index.decoder as? APNGDecoder
        else { return count }
        for (i, step) in index.steps.enumerated() {
            let stride = step.rect.width * 4
            let size = stride * step.rect.height
            // Filled with a pattern, so a row one path writes and the other
            // leaves shows.
            var fast = [UInt8](repeating: 0xA5, count: size)
            var slow = fast
            let a = fast.withUnsafeMutableBytes { p in
                Result {
                    try decoder.decode(
                        step: i, into: PixelTarget(base: p.baseAddress!, stride: stride, masked: false), fast: true)
                }
            }
            let b = slow.withUnsafeMutableBytes { p in
                Result {
                    try decoder.decode(
                        step: i, into: PixelTarget(base: p.baseAddress!, stride: stride, masked: false), fast: false)
                }
            }
            count.frames += 1
            switch (a, b) {
            case (.success, .success): count.fast += 1
            case (.failure(let e), .failure(let f)) where "\(e)" == "\(f)": break
            case (.success, .failure(let f)) where Self.afterTheRows("\(f)"):
                // Damage after the last row's data (bytes after the zlib
                // stream, its checksum cut): libpng stops there, the fast
                // path and the browsers show the image. The rows libpng
                // wrote must be the fast path's.
                count.fast += 1
                for r in 0..<step.rect.height where slow[(r * stride)..<((r + 1) * stride)].contains(where: { $0 != 0xA5 }) {
                    if fast[(r * stride)..<((r + 1) * stride)] != slow[(r * stride)..<((r + 1) * stride)] {
                        count.differences.append("frame \(i): row \(r) differs from libpng's (\(f))")
                        break
                    }
                }
                continue
            default: count.differences.append("frame \(i): fast path \(a), libpng \(b)")
            }
            if fast != slow {
                let at = fast.indices.first { fast[$0] != slow[$0] } ?? 0
                count.differences.append("frame \(i) \(step.rect): pixels differ at byte \(at) (row \(at / stride))")
            }
        }
        return count
    }

    /// libpng's errors about the zlib stream once every row is in.
    static func afterTheRows(_ message: String) -> Bool {
        message.contains("Extra compressed data") || message.contains("Not enough image data")
    }

    /// Arbitrary bytes into ImageSource and IncrementalImageSource.
    ///
    /// Every path a program opening an untrusted file takes: indexing, every
    /// frame in order, random access, decoding to a small size, and feeding the
    /// bytes in random chunks. Errors are fine; crashes, sanitizer reports,
    /// leaks, hangs and runaway memory are findings.
    static func decode(_ bytes: [UInt8]) {
        var rng = FuzzRandom(bytes)
        var options = DecodingOptions()
        // Limits small enough that the fuzzer's memory cap means a real leak
        // or a limit not enforced, not a big but legal canvas; and its time
        // limit a real hang, not legal work: at 1 << 22 pixels a 33 KB GIF
        // of twelve 64x65328 frames, decoded some 70 times here, took 6 s
        // under AddressSanitizer and past 20 s beside three other fuzzers.
        options.limits = DecodingLimits(maxCanvasPixels: 1 << 20, maxFrameCount: 5_000, maxDecodedBytes: 1 << 28)
        options.decodeAhead = 1 + Int(rng.next() % 2)
        options.mapFiles = false
        // The browsers' rules are the default; the other readings are options.
        let choice = rng.next()
        options.mergesZeroDelayImages = choice & 1 != 0
        options.growsCanvasToFirstImage = choice & 2 == 0
        options.colorManagement = choice & 12 == 12 ? .none : .sRGB
        if let difference = pngPaths(bytes, limits: options.limits).differences.first { fatalError(difference) }

        if let source = try? ImageSource(data: bytes, options: options) {
            let n = source.frameCount
            // Decoding ahead (colour conversion on the decoding thread,
            // steps taken back) gives the frames one thread gives.
            var inline = options
            inline.decodeAhead = 0
            if let one = try? ImageSource(data: bytes, options: inline) {
                for i in 0..<min(n, 12) {
                    let a = try? source.frame(at: i)
                    let b = try? one.frame(at: i)
                    if a != b { fatalError("frame \(i) decoded ahead differs from one thread") }
                }
            }
            _ = (source.width, source.height, source.loopCount, source.plays, source.indexError, source.frames.last?.duration)
            for i in 0..<min(n, 64) { _ = try? source.frame(at: i) }
            if n > 0 {
                for _ in 0..<4 { _ = try? source.frame(at: Int(rng.next() % UInt64(n))) }
                _ = try? source.frame(at: n - 1)
                _ = try? source.withFrame(at: 0) { $0.count }
            }
            _ = try? source.frame(at: n)  // out of range: an error
            // GIF to GIF shows the same frames (small inputs: it writes
            // and reads back every frame).
            if bytes.starts(with: Array("GIF".utf8)), n > 0, n <= 32, source.width * source.height <= 1 << 16,
                let difference = gifRoundTrip(source, name: "fuzz", splitting: false)
            {
                fatalError("GIF to GIF: \(difference)")
            }
        }
        var small = options
        small.fitIn = PixelSize(width: 1 + Int(rng.next() % 40), height: 1 + Int(rng.next() % 30))
        if let source = try? ImageSource(data: bytes, options: small) {
            for i in 0..<min(source.frameCount, 8) { _ = try? source.frame(at: i) }
        }

        let incremental = IncrementalImageSource(name: "fuzz", options: options)
        var position = 0
        while position < bytes.count {
            let n = 1 + Int(rng.next() % UInt64(max(1, bytes.count / 3)))
            incremental.append(bytes[position..<min(bytes.count, position + n)])
            position += n
            if incremental.frameCount > 0 { _ = try? incremental.frame(at: incremental.frameCount - 1) }
            _ = incremental.error
        }
        incremental.finish()
        for i in 0..<min(incremental.frameCount, 16) { _ = try? incremental.frame(at: i) }
        _ = incremental.error
    }

    /// ImageDestination driven by the input: format, frame size, frame
    /// count, durations, options, pixels; the result decoded and checked.
    ///
    /// Checked (a failure traps, which libFuzzer reports as a crash): the
    /// encoder finishes; what it writes decodes; frame count and durations
    /// are those given (identical frames merged, durations summed; lossy
    /// WebP may merge near-identical ones too); APNG and lossless WebP (not
    /// mixed) give back every pixel (WebP: colour under alpha 0 aside);
    /// GIF keeps which pixels are transparent (alpha < 128) exactly.
    static func encode(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return }
        var rng = FuzzRandom(bytes)
        let format = OutputFormat.allCases[Int(bytes[0]) % 3]
        let width = 1 + Int(bytes[1]) % 48
        let height = 1 + Int(bytes[2]) % 48
        let frameCount = 1 + Int(bytes[3]) % 6
        var options = EncodingOptions()
        options.plays = Int(bytes[4]) % 4
        options.lossless = format == .webp ? bytes[5] & 1 == 0 : false
        options.quality = Int(bytes[5]) % 101
        options.maxColors = 2 + Int(bytes[6]) % 255
        options.dither = EncodingOptions.Dither.allCases[Int(bytes[7]) % 3]
        options.allowMixed = bytes[7] & 8 != 0
        options.keyframeInterval = Int(bytes[6] >> 5)
        // Pixels: the rest of the input, repeated; some frames repeat the one
        // before (merging), some change a little (small rectangles).
        let palette = Array(bytes.dropFirst(8))
        var frames: [(RGBAImage, Duration)] = []
        var previous: RGBAImage?
        for f in 0..<frameCount {
            var image = previous ?? RGBAImage(width: width, height: height)
            let mode = rng.next() % 4
            if previous == nil || mode >= 2 {
                let count = mode == 3 ? width * height : 1 + Int(rng.next() % UInt64(width * height))
                var p = Int(rng.next() % UInt64(max(1, palette.count)))
                for _ in 0..<count {
                    let i = Int(rng.next() % UInt64(width * height)) * 4
                    for c in 0..<4 {
                        image.pixels[i + c] =
                            palette.isEmpty ? UInt8(truncatingIfNeeded: f * 40 + c) : palette[(p + c) % palette.count]
                    }
                    p += 3
                }
            }
            let duration = Duration.milliseconds(Int(rng.next() % 3000))
            frames.append((image, duration))
            previous = image
        }

        // The still PNG writer (`anim extract`): each colour choice decodes
        // back to the frame exactly, the same through libpng and the fast path.
        for color in PNGFile.Color.allCases {
            guard let png = PNGFile.encode(frames[0].0, color: color, level: 1 + Int(bytes[6]) % 12) else {
                fatalError("PNGFile.encode \(color) failed")
            }
            guard (try? ImageSource(data: png).frame(at: 0)) == frames[0].0 else { fatalError("PNGFile \(color): other pixels") }
            let paths = pngPaths(png)
            guard paths.differences.isEmpty else { fatalError("PNGFile \(color): \(paths.differences)") }
        }

        let out: ImageDestination
        do { out = try ImageDestination(format: format, options: options) } catch { fatalError("destination: \(error)") }
        do {
            for (image, duration) in frames { try out.add(image, duration: duration) }
            try out.finish()
        } catch {
            fatalError("\(format) \(width)x\(height)x\(frameCount): \(error)")
        }
        guard let encoded = out.data else { fatalError("no data after finish") }

        var decoding = DecodingOptions()
        decoding.durationPolicy = .raw
        let source: ImageSource
        do { source = try ImageSource(data: encoded, options: decoding) } catch { fatalError("decode: \(error)") }
        guard source.width == width, source.height == height, source.indexError == nil else {
            fatalError("decoded \(source.width)x\(source.height), error \(String(describing: source.indexError))")
        }
        // Fully transparent pixels may lose their colour unless
        // `keepHiddenColors` asks to keep it.
        func shown(_ a: RGBAImage) -> [UInt8] {
            var px = a.pixels
            if !options.keepHiddenColors {
                for p in stride(from: 0, to: px.count, by: 4) where px[p + 3] == 0 {
                    px[p] = 0
                    px[p + 1] = 0
                    px[p + 2] = 0
                }
            }
            return px
        }
        // WebP: WebPAnimEncoder merges a frame into the one before when it
        // finds it equal (lossless) or close enough (lossy), except where it
        // places a keyframe; so the check follows time: frames no more than
        // there are, the same total duration, and (lossless) at the middle
        // of each frame given, the frame shown has its pixels.
        if format == .webp {
            let total = frames.reduce(Duration.zero) { $0 + $1.1 }
            let decodedTotal = source.frames.reduce(Duration.zero) { $0 + $1.delay }
            // Down to one frame, libwebp writes a still image: no duration.
            guard source.frameCount <= frames.count, source.frameCount > 0,
                source.frameCount == 1 || abs((decodedTotal - total) / .milliseconds(1)) < Double(frames.count)
            else {
                fatalError("WebP: \(source.frameCount) frames, \(decodedTotal) for \(frames.count), \(total)")
            }
            guard options.lossless && !options.allowMixed else { return }  // mixed: libwebp may pick lossy
            var start = Duration.zero
            for (i, (image, duration)) in frames.enumerated() {
                defer { start += duration }
                guard duration > .zero || frames.count == 1 else { continue }  // never shown
                let middle = start + duration / 2
                var j = 0
                var end = source.frames[0].delay
                while j + 1 < source.frameCount && end <= middle {
                    j += 1
                    end += source.frames[j].delay
                }
                let decoded: RGBAImage
                do { decoded = try source.frame(at: j) } catch { fatalError("frame \(j): \(error)") }
                for p in 0..<(width * height) where image.pixels[p * 4 + 3] != 0 || decoded.pixels[p * 4 + 3] != 0 {
                    guard decoded.pixels[(p * 4)..<(p * 4 + 4)] == image.pixels[(p * 4)..<(p * 4 + 4)] else {
                        fatalError("lossless WebP frame \(i) (shown as \(j)) pixel \(p) differs")
                    }
                }
            }
            return
        }
        // Runs of identical frames become one: `ImageDestination` merges
        // equal frames (APNG: equal as shown) when neither has no duration.
        var expected: [(RGBAImage, Duration)] = []
        for (image, duration) in frames {
            if let last = expected.last, last.1 > .zero, duration > .zero,
                format == .apng ? shown(last.0) == shown(image) : last.0 == image
            {
                expected[expected.count - 1].1 += duration
            } else {
                expected.append((image, duration))
            }
        }
        guard source.frameCount == expected.count else {
            fatalError("\(format): \(source.frameCount) frames decoded, \(expected.count) expected")
        }
        for (i, (image, duration)) in expected.enumerated() {
            let decoded: RGBAImage
            do { decoded = try source.frame(at: i) } catch { fatalError("frame \(i): \(error)") }
            let stored = source.frames[i].delay
            switch format {
            case .apng:
                guard shown(decoded) == shown(image) else { fatalError("APNG frame \(i) differs") }
                // (A single frame is written as a still PNG: no duration.)
                guard source.format == .png || abs((stored - duration) / .milliseconds(1)) < 1.5 else {
                    fatalError("APNG frame \(i): \(stored) for \(duration)")
                }
            case .webp: break  // checked above
            case .gif:
                for p in 0..<(width * height) where (image.pixels[p * 4 + 3] >= 128) != (decoded.pixels[p * 4 + 3] == 255) {
                    fatalError("GIF frame \(i) pixel \(p): alpha \(image.pixels[p * 4 + 3]) became \(decoded.pixels[p * 4 + 3])")
                }
            }
        }
    }
}
