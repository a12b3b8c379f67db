extension IncrementalImageSource {
    /// Appends every chunk of `bytes` as it arrives, then `finish()`es
    /// (also when the sequence throws, whose error is rethrown, and when
    /// the task is cancelled: `CancellationError` after the chunks that
    /// came before it). Read frames from another task meanwhile.
    public func append<Chunks: AsyncSequence>(contentsOf bytes: Chunks) async throws where Chunks.Element == [UInt8] {
        defer { finish() }
        for try await chunk in bytes {
            try Task.checkCancellation()
            append(chunk)
        }
        try Task.checkCancellation()
    }
}
