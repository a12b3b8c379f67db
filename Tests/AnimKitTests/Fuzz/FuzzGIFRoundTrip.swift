// GIF to GIF never changes a picture: shared by the decode fuzz target
// (every GIF input that decodes) and GIFExactTranscodeTests (every GIF
// fixture). Built into the fuzz targets with AnimKit's sources.
#if canImport(AnimKit)
    @testable import AnimKit
#endif

extension FuzzChecks {
    /// What differs between the frames a GIF source shows and those of its
    /// GIF-to-GIF output (`ImageSource.transcode`, read back with the same
    /// options), or nil when nothing does, or when the source is not one
    /// the check covers: a frame that does not decode, or more colours in a
    /// frame than 16 tables (`EncodingOptions.exactColors` splits up to
    /// that). Identical neighbours may be merged (durations summed): what
    /// shows at each source frame's start time is compared, transparent
    /// pixels by their alpha only; plays and the total duration too (not
    /// of an output that is a still played once, written with no delay).
    ///
    /// `splitting` false (the fuzzer): also not a source with a frame of 256
    /// colours and transparency, which GIF can only show exactly as several
    /// images, the first ones of no delay, shown as frames of their own.
    static func gifRoundTrip(_ source: ImageSource, name: String, splitting: Bool = true) -> String? {
        var frames: [RGBAImage] = []
        for i in 0..<source.frameCount {
            guard let f = try? source.frame(at: i) else { return nil }
            let n = colors(f)
            guard n <= 16 * 255 else { return nil }
            if !splitting && n + (stride(from: 3, to: f.pixels.count, by: 4).contains { f.pixels[$0] < 128 } ? 1 : 0) > 256 {
                return nil
            }
            frames.append(f)
        }
        guard !frames.isEmpty else { return nil }
        let back: ImageSource
        do {
            let report = try Transcoder(source, format: .gif).write(to: .memory)
            guard let data = report.data else { return "\(name): no output" }
            back = try ImageSource(data: data, name: name, options: source.options)
        } catch {
            return "\(name): \(error)"
        }
        if back.frameCount > source.frameCount { return "\(name): \(back.frameCount) frames from \(source.frameCount)" }
        if back.plays != source.plays { return "\(name): plays \(back.plays) from \(source.plays)" }
        let total = { (s: ImageSource) in s.frames.map(\.duration).reduce(.zero, +) }
        // (A still played once, identical frames merged included, is
        // written without a delay: nothing shows it.)
        let still = back.frameCount == 1 && source.plays == .count(1)
        if !still && total(back) != total(source) {
            return "\(name): total duration \(total(back)) from \(total(source))"
        }
        var ends: [Duration] = []
        var t = Duration.zero
        for f in back.frames {
            t += f.duration
            ends.append(t)
        }
        var start = Duration.zero
        for i in 0..<frames.count {
            // (As many frames: frame for frame, zero durations included.)
            let j = back.frameCount == frames.count ? i : ends.firstIndex { $0 > start } ?? back.frameCount - 1
            start += source.frames[i].duration
            guard let b = try? back.frame(at: j) else { return "\(name): output frame \(j) does not decode" }
            var changed = 0
            for p in stride(from: 0, to: b.pixels.count, by: 4) {
                let same =
                    frames[i].pixels[p + 3] == 0
                    ? b.pixels[p + 3] == 0 : b.pixels[p..<(p + 4)].elementsEqual(frames[i].pixels[p..<(p + 4)])
                if !same { changed += 1 }
            }
            if changed > 0 { return "\(name): frame \(i): \(changed) pixels changed" }
        }
        return nil
    }

    /// The distinct opaque colours of an image (transparent pixels aside).
    static func colors(_ image: RGBAImage) -> Int {
        var seen = Set<UInt32>()
        image.pixels.withUnsafeBytes { raw in
            for p in raw.bindMemory(to: UInt32.self) where p >> 24 >= 128 { seen.insert(p) }
        }
        return seen.count
    }
}
