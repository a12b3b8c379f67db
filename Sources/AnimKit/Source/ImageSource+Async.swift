extension ImageSource {
    /// Frame `index`, decoded on a Dispatch queue so the calling task's
    /// thread is not held while libgif, libpng or libwebp work. A cancelled
    /// task gets `CancellationError` at once, before or during the decode
    /// (which then finishes on its own, its frame dropped).
    public func decodeFrame(at index: Int) async throws -> RGBAImage {
        try await OffThread.run { try self.frame(at: index) }
    }

    /// Every frame in order, decoded off the caller's thread one at a
    /// time as the sequence is iterated:
    ///
    /// ```swift
    /// for try await frame in source.decodedFrames {
    ///     print(frame.index, frame.info.duration, frame.image.width)
    /// }
    /// ```
    public var decodedFrames: DecodedFrames { DecodedFrames(source: self) }
}

/// A frame with its pixels, from `ImageSource.decodedFrames`.
public struct DecodedFrame: Sendable {
    /// The frame's position in the animation.
    public let index: Int
    /// Its timing, rectangle and disposal.
    public let info: FrameInfo
    /// The composited frame.
    public let image: RGBAImage
}

/// The frames of an `ImageSource` as an `AsyncSequence`, decoded lazily.
public struct DecodedFrames: AsyncSequence, Sendable {
    /// Each element is one decoded frame.
    public typealias Element = DecodedFrame
    let source: ImageSource

    /// Decodes the next frame each time it is asked.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: ImageSource
        var next = 0
        /// The next frame, or nil after the last one.
        public mutating func next() async throws -> DecodedFrame? {
            guard next < source.frameCount else { return nil }
            let index = next
            next += 1
            return DecodedFrame(index: index, info: source.frames[index], image: try await source.decodeFrame(at: index))
        }
    }

    /// An iterator from the first frame.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }
}
