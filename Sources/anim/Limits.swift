import AnimKit

/// The decoder's limits on the command line (`Option.maxCanvasPixels`,
/// `.maxFrames`, `.maxDecodedBytes`): a file over one is refused before
/// anything is allocated, with a message naming the option that raises it.
enum Limits {
    static let options: [(option: Option, limit: String)] = [
        (.maxCanvasPixels, "maxCanvasPixels"), (.maxFrames, "maxFrameCount"), (.maxDecodedBytes, "maxDecodedBytes"),
        (.maxPixelsPerByte, "maxPixelsPerByte"),
    ]

    /// An error as the command line says it: a limit names its option, not
    /// the library's field.
    static func describe(_ error: Error) -> String {
        if let usage = error as? UsageError { return usage.message }
        guard case AnimError.limitExceeded(let file, let limit, let value, let maximum) = error else { return "\(error)" }
        if limit == "maxMemory" {
            return "\(file): its pictures need \(MemoryBudget.describe(value)) of memory, more than the budget of"
                + " \(MemoryBudget.describe(maximum)) (raise it with \(Option.maxMemory.flag) SIZE)"
        }
        let flag = options.first { $0.limit == limit }?.option.flag ?? limit
        let why = limit == "maxPixelsPerByte" ? ": the canvas is out of all proportion to the file's bytes" : ""
        return "\(file): \(limit) \(value) exceeds the limit of \(maximum)\(why) (raise it with \(flag) N)"
    }
}
