import AnimKit

/// `--max-memory` shared between a command's parts: the source's decoding
/// (`ImageSource.memoryFootprint`), frames in flight, the encoder
/// (`ImageDestination.memoryFootprint`), a frame cache.
enum MemoryBudget {
    /// `bytes` as a person reads it: "512 MiB", "1.5 GiB".
    static func describe(_ bytes: Int) -> String {
        let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, unit) in units where bytes >= size {
            let value = Double(bytes) / Double(size)
            let text = value >= 100 || value == value.rounded() ? "\(Int(value.rounded()))" : "\((value * 10).rounded() / 10)"
            return "\(text) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// `source`, or the same file with fewer decodes ahead, so that its
    /// decoding and `reserved` bytes (the rest of the command's work) fit
    /// in the source's `maxMemory`; throws `limitExceeded` (`maxMemory`)
    /// when even one thread does not fit.
    static func fit(_ source: ImageSource, reserving reserved: Int) throws -> ImageSource {
        let budget = source.options.limits.maxMemory
        let (needed, overflow) = source.minimumMemory.addingReportingOverflow(reserved)
        if overflow || needed > budget {
            throw AnimError(file: source.name, LimitExceeded(.memory, value: overflow ? Int.max : needed, maximum: budget))
        }
        // Close to the budget, the allocator's per-thread heaps would keep
        // more than the work holds.
        if needed > budget / 2 || source.memoryFootprint + reserved > budget / 2 { Allocator.tighten() }
        guard source.memoryFootprint + reserved > budget else { return source }
        var options = source.options
        options.limits.maxMemory = budget - reserved
        return try source.sharingIndex(options: options)
    }

    /// What writing `count` frames of `width`×`height` to `format` holds beside
    /// the source's decoding: the encoder, and `frames` frames handed over
    /// (the one encoded, the one read ahead). `inputBytes` stands for the
    /// size of the file written.
    static func encoding(
        format: OutputFormat, width: Int, height: Int, count: Int, inputBytes: Int, frames: Int = 2
    ) -> Int {
        let frame = max(width, 1).multipliedReportingOverflow(by: max(height, 1))
        guard !frame.overflow, frame.partialValue < Int.max / 64 else { return Int.max / 2 }
        return ImageDestination.memoryFootprint(
            format: format, width: width, height: height, frames: count, outputBytes: inputBytes)
            + frames * frame.partialValue * 4
    }
}
