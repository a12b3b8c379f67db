extension ImageSource {
    /// The composited RGBA8 image of frame `index`: the full canvas, or
    /// `outputWidth`×`outputHeight` when the source downsamples.
    public func frame(at index: Int) throws -> RGBAImage {
        guard downsampler == nil else {
            return try withFrame(at: index) { RGBAImage(width: outputWidth, height: outputHeight, pixels: Array($0)) }
        }
        // Full size: the image's own buffer serves as the patch a blending
        // step decodes into, before it receives the canvas; no second
        // canvas-sized buffer is needed.
        let count = width * height * 4
        var failure: Error?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do {
                try withFrame(at: index, scratch: UnsafeMutableRawBufferPointer(buffer)) { canvas in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(from: canvas)
                }
                initialized = count
            } catch {
                buffer.initialize(repeating: 0)
                initialized = count
                failure = error
            }
        }
        if let failure { throw failure }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Lends the composited canvas of frame `index` to `body` without
    /// copying it. The bytes are valid only inside `body`, which runs with
    /// the source locked: it must not call back into this source.
    public func withFrame<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try withFrame(at: index, scratch: nil, body)
    }

    /// `scratch`: a canvas-sized buffer free until `body` runs, used as the
    /// patch instead of the source's own.
    func withFrame<R>(
        at index: Int, scratch: UnsafeMutableRawBufferPointer?,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard index >= 0 && index < frames.count else {
            throw AnimError.frameOutOfRange(file: name, frame: index, frameCount: frames.count)
        }
        lock.lock()
        defer { lock.unlock() }
        scratchPatch = scratch
        defer { scratchPatch = nil }
        let compositor = try render(frame: index)
        guard let downsampler else { return try body(UnsafeRawBufferPointer(compositor.canvas)) }
        if output.count != outputWidth * outputHeight * 4 {
            output = [UInt8](repeating: 0, count: outputWidth * outputHeight * 4)
        }
        return try output.withUnsafeMutableBytes { out in
            downsampler.run(UnsafeRawBufferPointer(compositor.canvas), into: out)
            return try body(UnsafeRawBufferPointer(out))
        }
    }

    /// Brings the compositor to the last step of `frame`, starting from the
    /// canvas it holds or the nearest keyframe, whichever is closer.
    private func render(frame: Int) throws -> Compositor {
        let compositor = self.compositor ?? Compositor(width: width, height: height, formula: formula)
        self.compositor = compositor
        let range = frameSteps[frame]
        guard let target = range.last else {
            compositor.reset()
            compositor.canvas.update(repeating: 0)
            return compositor
        }
        let current = compositor.currentStep
        if current == target { return compositor }
        let key = keyAtOrBefore[target]
        var start = key
        if current >= 0 && current < target && current + 1 >= key { start = current + 1 }
        if start == key { compositor.reset() }
        if let snapshot = checkpoints?.checkpoint(in: 0...frame)?.snapshot,
            snapshot.step <= target, snapshot.step + 1 > start
        {
            compositor.restore(snapshot)  // closer than the keyframe or the canvas
            start = snapshot.step + 1
            if snapshot.step == target {
                lastRequestedFrame = frame
                return compositor
            }
        }
        // Read in order, decode ahead past the target; otherwise only up to it.
        let sequential = frame == lastRequestedFrame + 1
        lastRequestedFrame = frame
        let horizon = sequential ? min(target + (prefetcher?.depth ?? 0), steps.count - 1) : target
        prefetcher?.cancel(outside: start...max(horizon, start))
        for s in start...target {
            if s < horizon { prefetcher?.schedule((s + 1)...horizon) }
            try draw(step: s, frame: frame, on: compositor)
        }
        return compositor
    }

    /// Every `checkpointInterval` steps past a keyframe, at the end of a
    /// frame, offers the canvas to the cache so later seeks can start here.
    /// Only when a checkpoint costs no more than the frames it spares a seek
    /// from decoding would cost to cache: with frames delivered much smaller
    /// than the canvas (a terminal player), full canvases are not worth it.
    /// Called by the cache once the frame just rendered is stored, so the
    /// checkpoint never competes with that frame for memory.
    func offerCheckpoint() {
        lock.lock()
        defer { lock.unlock() }
        guard let compositor, compositor.currentStep >= 0 else { return }
        let s = compositor.currentStep
        guard let cache = checkpoints, frameEndingAt[s] >= 0 else { return }
        let sinceKey = s - keyAtOrBefore[s]
        let canvasBytes = width * height * 4
        guard sinceKey >= checkpointInterval, sinceKey % checkpointInterval == 0,
            canvasBytes <= checkpointInterval * outputWidth * outputHeight * 4,
            cache.reserveCheckpoint(frame: frameEndingAt[s], cost: canvasBytes + compositor.saved.count),
            let snapshot = compositor.snapshot()
        else { return }
        cache.insertCheckpoint(snapshot, frame: frameEndingAt[s])
    }

    private func draw(step s: Int, frame: Int, on compositor: Compositor) throws {
        let step = steps[s]
        let route = compositor.begin(step: step, index: s, masked: decoder.writesMasked)
        do {
            if let job = prefetcher?.take(s) {
                defer { prefetcher?.recycle(job) }
                if let error = job.error { throw error }
                if compositor.replacesAll(step) {
                    job.buffer = compositor.adopt(job.buffer)  // the old canvas goes back to the pool
                } else {
                    compositor.place(step, patch: UnsafeRawBufferPointer(job.buffer))
                }
            } else {
                try decode(step: s, step, route: route, on: compositor)
            }
        } catch let error as AnimError {
            compositor.reset()
            throw error.relabelled(frame: frame)
        }
        stepsDecodedCount += 1
        compositor.end(step: step, index: s)
        store.release(0..<decoder.dataRange(step: s).upperBound)  // all read so far, read-ahead included
    }

    /// Decodes step `s` on this thread, where `begin` routed it.
    private func decode(step s: Int, _ step: Step, route: Compositor.Route, on compositor: Compositor) throws {
        switch route {
        case .canvas(let origin, let stride, let masked):
            try decoder.decode(step: s, into: PixelTarget(base: origin, stride: stride, masked: masked))
        case .patch:
            let bytes = step.rect.width * step.rect.height * 4
            if bytes > 0 {
                let buffer = patchBuffer(bytes)
                try decoder.decode(
                    step: s,
                    into: PixelTarget(
                        base: buffer.baseAddress!, stride: step.rect.width * 4,
                        masked: false))
                compositor.blend(step, patch: UnsafeRawBufferPointer(buffer))
            }
        }
    }

    /// The reused patch buffer, grown to at least `bytes`.
    private func patchBuffer(_ bytes: Int) -> UnsafeMutableRawBufferPointer {
        if let scratch = scratchPatch, scratch.count >= bytes {
            return UnsafeMutableRawBufferPointer(rebasing: scratch[0..<bytes])
        }
        if (patch?.count ?? -1) < bytes {
            patch?.deallocate()
            patch = .allocate(byteCount: bytes, alignment: 16)
        }
        return UnsafeMutableRawBufferPointer(rebasing: patch![0..<bytes])
    }
}

extension AnimError {
    /// The same error about displayed frame `frame` (codecs count GIF
    /// images, which may differ from displayed frames).
    func relabelled(frame: Int) -> AnimError {
        switch self {
        case .truncated(let file, _, let offset, let detail):
            return .truncated(file: file, frame: frame, offset: offset, detail: detail)
        case .malformed(let file, _, let offset, let reason):
            return .malformed(file: file, frame: frame, offset: offset, reason: reason)
        case .library(let file, _, let library, let message):
            return .library(file: file, frame: frame, library: library, message: message)
        default: return self
        }
    }
}

extension ImageSource {
    /// Takes over the canvas `previous` composited, when `previous` indexed
    /// a prefix of the same bytes (an incremental source growing): its
    /// steps are this source's first steps,
    /// so reading on continues from there instead of from a keyframe.
    /// `previous` starts again from a keyframe if it is read after this.
    public func continueDecoding(from previous: ImageSource) {
        guard previous.width == width, previous.height == height, previous.formula == formula,
            previous.steps.count <= steps.count
        else { return }
        previous.lock.lock()
        let compositor = previous.compositor
        let last = previous.lastRequestedFrame
        previous.compositor = nil
        previous.lock.unlock()
        lock.lock()
        self.compositor = compositor
        lastRequestedFrame = last
        lock.unlock()
    }
}
