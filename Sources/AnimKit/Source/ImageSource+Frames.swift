extension ImageSource {
    /// The composited RGBA8 image of frame `index`: the full canvas, or
    /// `outputWidth`×`outputHeight` when the source downsamples.
    public func frame(at index: Int) throws -> RGBAImage {
        try image(at: index, store: nil)
    }

    /// Frame `index` as `frame(at:)` gives it; `store`: read for it (`FrameCursor.withFrame`).
    func image(at index: Int, store: (any FrameStore)?) throws -> RGBAImage {
        guard !downsamples else {
            return try withFrame(at: index, scratch: nil, store: store) {
                RGBAImage(width: outputWidth, height: outputHeight, trusting: Array($0))
            }
        }
        // Full size: the image's own buffer serves as the patch a blending
        // step decodes into, before it receives the canvas; no second
        // canvas-sized buffer is needed.
        let count = width * height * 4
        var failure: Error?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = count
            do {
                try withFrame(at: index, scratch: UnsafeMutableRawBufferPointer(buffer), store: store) { canvas in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: canvas)
                }
            } catch {
                buffer.initialize(repeating: 0)
                failure = error
            }
        }
        if let failure { throw failure }
        return RGBAImage(width: width, height: height, trusting: pixels)
    }

    /// Frame `index`, decoded on a Dispatch queue so the calling task's
    /// thread is not held while libgif, libpng or libwebp work. A cancelled
    /// task gets `CancellationError` at once, before or during the decode
    /// (which then finishes on its own, its frame dropped).
    public func decodeFrame(at index: Int) async throws -> RGBAImage {
        try await OffThread.run { try self.frame(at: index) }
    }

    /// Lends the composited canvas of frame `index` to `body` without
    /// copying it. The bytes are valid only inside `body`, which runs with
    /// the source locked: it must not call back into this source.
    public func withFrame<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try withFrame(at: index, scratch: nil, store: nil, body)
    }

    /// `scratch`: a canvas-sized buffer free until `body` runs, used as the
    /// patch instead of the source's own; `store`: the read is for it.
    func withFrame<R>(
        at index: Int, scratch: UnsafeMutableRawBufferPointer?, store: (any FrameStore)?,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard index >= 0 && index < frameCount else {
            throw AnimError(file: name, frame: index, CommonProblem.frameOutOfRange(frame: index, frameCount: frameCount))
        }
        return try cursor.withLock { try $0.withFrame(index, scratch: scratch, store: store, body) }
    }
}

extension ImageSource {
    /// Takes over the canvas `previous` composited, when `previous` indexed
    /// a prefix of the same bytes (an incremental source growing), so that
    /// reading on continues from there instead of from a keyframe.
    /// `previous` starts again from a keyframe if it is read after this.
    public func continueDecoding(from previous: ImageSource) {
        guard previous.width == width, previous.height == height, previous.index.formula == index.formula,
            previous.index.steps.count <= index.steps.count
        else { return }
        let (compositor, last) = previous.cursor.withLock { c in
            defer { c.compositor = nil }
            return (c.compositor, c.lastRequestedFrame)
        }
        cursor.withLock {
            $0.compositor = compositor
            $0.lastRequestedFrame = last
        }
    }
}
