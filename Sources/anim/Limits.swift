import AnimKit

/// The decoder's limits on the command line: a file over one is refused
/// before anything is allocated, with a message naming the option that
/// raises it.
enum Limits {
    /// A whole-number limit: its option (whose help shows the field's
    /// default) and the `DecodingLimits` field it sets.
    struct Entry: Sendable {
        let limit: Limit
        let option: Option
        let field: WritableKeyPath<DecodingLimits, Int> & Sendable

        init(
            _ limit: Limit, _ name: String, _ field: WritableKeyPath<DecodingLimits, Int> & Sendable, _ help: String,
            then more: String = ""
        ) {
            (self.limit, self.field) = (limit, field)
            option = Option(
                name, .integer("N", 1...Int.max), help: "\(help) (default \(DecodingLimits()[keyPath: field]))\(more)")
        }
    }

    /// In the help's order; `--max-memory` (a size) is `Option.maxMemory`.
    static let entries = [
        Entry(.canvasPixels, "max-canvas-pixels", \.maxCanvasPixels, "largest canvas, in pixels"),
        Entry(.frameCount, "max-frames", \.maxFrameCount, "most frames in a file"),
        Entry(.decodedBytes, "max-decoded-bytes", \.maxDecodedBytes, "most pixel bytes decoded over all frames"),
        Entry(
            .pixelsPerByte, "max-pixels-per-byte", \.maxPixelsPerByte, "largest canvas for each byte of the file",
            then: ": a canvas out of all proportion to its bytes is a decompression bomb"),
    ]

    /// The option that sets `limit`. Limit is a struct that 2.x may add
    /// to: a new limit reads as the memory budget until it has an option.
    /// (Each message's option is checked by LimitTests, BombTests and
    /// MemoryBudgetTests.)
    static func option(for limit: Limit) -> Option {
        entries.first { $0.limit == limit }?.option ?? .maxMemory
    }

    /// An error as the command line says it: a limit names its option, not
    /// the library's field.
    static func describe(_ error: Error) -> String {
        if let usage = error as? UsageError { return usage.message }
        guard let error = error as? AnimError, let over = error.problem as? LimitExceeded else { return "\(error)" }
        let flag = option(for: over.limit).flag
        if over.limit == .memory {
            return "\(error.file): its pictures need \(MemoryBudget.describe(over.value)) of memory, more than the budget of"
                + " \(MemoryBudget.describe(over.maximum)) (raise it with \(flag) SIZE)"
        }
        let why = over.limit == .pixelsPerByte ? ": the canvas is out of all proportion to the file's bytes" : ""
        return "\(error.file): \(over.limit) \(over.value) exceeds the limit of \(over.maximum)\(why) (raise it with \(flag) N)"
    }
}
