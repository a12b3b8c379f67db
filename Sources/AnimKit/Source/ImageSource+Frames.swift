extension ImageSource {
    /// The composited RGBA8 image of frame `index`: the full canvas, or
    /// `outputWidth`×`outputHeight` when the source downsamples.
    public func frame(at index: Int) throws -> RGBAImage {
        try image(at: index, store: nil)
    }

    /// Frame `index` as `frame(at:)` gives it, read for `store` if any.
    func image(at index: Int, store: (any FrameStore)?) throws -> RGBAImage {
        let count = outputWidth * outputHeight * 4
        let pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // At full size, the image's own buffer is the patch a blending step
            // decodes into before it receives the canvas (no second canvas-sized buffer).
            let scratch = downsamples ? nil : UnsafeMutableRawBufferPointer(buffer)
            try withFrame(at: index, scratch: scratch, store: store) {
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0)
            }
            initialized = count
        }
        return RGBAImage(width: outputWidth, height: outputHeight, trusting: pixels)
    }

    /// Frame `index`, decoded on a Dispatch queue so the calling task's
    /// thread is not held while the C libraries work. A cancelled task gets
    /// `CancellationError` at once, before or during the decode (`OffThread`).
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
    /// patch instead of the source's own; `store`: the read is for it
    /// (checkpoints from it, no steps decoded ahead).
    func withFrame<R>(
        at index: Int, scratch: UnsafeMutableRawBufferPointer?, store: (any FrameStore)?,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard index >= 0 && index < frameCount else {
            throw AnimError(file: name, frame: index, CommonProblem.frameOutOfRange(frame: index, frameCount: frameCount))
        }
        return try cursor.withLock { try $0.withFrame(index, scratch: scratch, store: store, body) }
    }

    /// Takes over the canvas `previous` composited, when `previous` indexed a
    /// prefix of the same bytes (a stream growing), so reading continues from
    /// there; `previous` restarts from a keyframe if read after this.
    public func continueDecoding(from previous: ImageSource) {
        guard previous.width == width, previous.height == height, previous.index.formula == index.formula,
            previous.index.steps.count <= index.steps.count
        else { return }
        let (compositor, last) = previous.cursor.withLock { ($0.compositor.take(), $0.lastRequestedFrame) }
        cursor.withLock { ($0.compositor, $0.lastRequestedFrame) = (compositor, last) }
    }

    /// Frame `index` read for `store` (a frame cache): from it, or decoded
    /// there, once decode-ahead is done with it if it is compositing it.
    func frame(at index: Int, through store: some FrameStore, cost: Int) throws -> RGBAImage {
        ahead.claim(index)
        return try store.image(at: index) ?? decode(index, into: store, cost: cost)
    }

    /// Decodes frame `index` into `store`, costing `cost`: room is made first,
    /// so that it and the frames it replaces never take memory together; then
    /// the canvas is offered as a checkpoint, which never competes with it.
    func decode(_ index: Int, into store: some FrameStore, cost: Int) throws -> RGBAImage {
        store.makeRoom(for: index, cost: cost)
        let image = try image(at: index, store: store)
        store.keep(image, at: index)
        cursor.withLock { $0.offerCheckpoint(to: store) }
        return image
    }
}
