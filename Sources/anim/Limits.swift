import AnimKit

/// The decoder's limits on the command line (`Option.maxCanvasPixels`,
/// `.maxFrames`, `.maxDecodedBytes`, `.maxPixelsPerByte`, `.maxMemory`): a
/// file over one is refused before anything is allocated, with a message
/// naming the option that raises it.
enum Limits {
    /// The option that sets `limit`.
    static func option(for limit: Limit) -> Option {
        switch limit {
        case .canvasPixels: return .maxCanvasPixels
        case .frameCount: return .maxFrames
        case .decodedBytes: return .maxDecodedBytes
        case .pixelsPerByte: return .maxPixelsPerByte
        case .memory: return .maxMemory
        // Limit is a struct that 2.x may add to: a new limit reads as the
        // memory budget until it has an option. (Each message's option is
        // checked by LimitTests, BombTests and MemoryBudgetTests.)
        default: return .maxMemory
        }
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
