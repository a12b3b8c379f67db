import AnimKit
import Dispatch

/// Reads standard input into an incremental source as it arrives.
enum StandardInput {
    /// Appends stdin to `source` chunk by chunk, calling `progress` after
    /// each, then finishes the source.
    static func feed(_ source: IncrementalImageSource, progress: () throws -> Void = {}) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AnimError(file: "<stdin>", IOFailure(operation: "read", errno: errno))
            }
            if n == 0 { break }
            source.append(buffer[0..<n])
            try progress()
        }
        source.finish()
    }

    /// The whole of stdin as a source, or the error that stopped it.
    static func source(options: DecodingOptions) throws -> (ImageSource, AnimError?) {
        let incremental = IncrementalImageSource(name: "<stdin>", options: options)
        try feed(incremental)
        guard let source = incremental.source else {
            throw incremental.error ?? AnimError(file: "<stdin>", offset: 0, CommonProblem.noData)
        }
        return (source, incremental.error)
    }

    /// Reads stdin into a stream on a thread of its own, so a player can
    /// start on the first complete frame.
    final class Reader: Sendable {
        let stream: IncrementalImageSource
        private let failure = Locked<AnimError?>(nil)

        init(options: DecodingOptions) {
            stream = IncrementalImageSource(name: "<stdin>", options: options)
            DispatchQueue.global(qos: .userInitiated).async { [stream] in
                do { try StandardInput.feed(stream) } catch {
                    self.failure.withLock { $0 = error as? AnimError }
                    stream.finish()
                }
            }
        }

        /// A read error (not a problem in the data: that is `stream.error`).
        var readError: AnimError? { failure.withLock { $0 } }

        /// Returns once a frame is complete; throws if the input ends first
        /// or is not an image.
        func waitForFirstFrame() throws {
            while stream.frameCount == 0 {
                if let error = readError { throw error }
                if stream.isFinished || stream.error != nil {
                    throw stream.error ?? AnimError(file: "<stdin>", offset: 0, CommonProblem.noData)
                }
                stream.waitForData(timeoutMs: 100)
            }
        }
    }
}
