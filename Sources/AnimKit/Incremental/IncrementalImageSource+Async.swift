extension IncrementalImageSource {
    /// Appends every chunk of `bytes` as it arrives, then `finish()`es
    /// (also when the sequence throws, whose error is rethrown). Read
    /// frames from another task meanwhile.
    public func append<Chunks: AsyncSequence>(contentsOf bytes: Chunks) async throws where Chunks.Element == [UInt8] {
        do {
            for try await chunk in bytes { append(chunk) }
        } catch {
            finish()
            throw error
        }
        finish()
    }
}
