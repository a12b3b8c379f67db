/// The decoding state of an `ImageSource`: the canvas and its compositor,
/// the patch buffers, decode-ahead, the downsampler's output and the
/// checkpoint store. It brings the canvas to any frame, from the canvas it
/// holds, a checkpoint or the nearest keyframe, whichever is closest.
///
/// Not `Sendable` and not locked: the `ImageSource` that owns it calls it
/// with its lock held.
final class FrameCursor {
    /// What errors call the file.
    let file: String
    let index: FrameIndex
    let decoder: StepDecoder
    let store: ByteStore
    let prefetcher: StepPrefetcher?
    var compositor: Compositor?
    /// The canvas as handed out: downsampled, colour-converted or as is.
    var delivery: FrameDelivery
    /// The patch buffer, grown as needed, and a caller's buffer lent as the
    /// patch for one `withFrame` call.
    var patch: (own: UnsafeMutableRawBufferPointer?, lent: UnsafeMutableRawBufferPointer?)
    /// What the last `render` changed: it continued the canvas from step
    /// `from` and drew only inside `rect`; nil when anything may have changed.
    private var lastChange: (from: Int, rect: Rect)?
    /// Steps decoded here, decoded ahead, and converted ahead.
    var counts = (decoded: 0, decodedAhead: 0, convertedAhead: 0)
    var lastRequestedFrame = -1
    /// Why no frame is decoded: the decoding would not fit in
    /// `DecodingLimits.maxMemory` (thrown before the canvas is allocated).
    var refusal: AnimError?
    /// Why no frame is decoded when a still meant to be shrunk as it
    /// decodes (`scaledStill`) needs the canvas after all (damaged data).
    var canvasRefusal: AnimError?
    /// Where to keep and find checkpoints (a `FrameCache`, set by `CachedFrameSource`).
    weak var checkpoints: (any CheckpointStore)?
    /// A checkpoint is offered every this many steps after a keyframe.
    static let checkpointInterval = 8

    init(
        file: String, index: FrameIndex, decoder: StepDecoder, store: ByteStore, outputWidth: Int, outputHeight: Int,
        decodeAhead: Int, colorTransform: ColorTransform? = nil
    ) {
        self.file = file
        self.index = index
        self.decoder = decoder
        self.store = store
        delivery = FrameDelivery(
            canvasWidth: index.width, canvasHeight: index.height, width: outputWidth, height: outputHeight,
            colorTransform: colorTransform)
        prefetcher =
            decodeAhead > 0 && index.steps.count > 1
            ? StepPrefetcher(
                decoder: decoder, steps: index.steps, depth: decodeAhead,
                transform: delivery.downsampler == nil ? colorTransform : nil) : nil
    }

    deinit { patch.own?.deallocate() }

    /// Lends frame `frame` as delivered (downsampled or not) to `body`.
    /// `scratch`: a canvas-sized buffer free until `body` runs, used as the
    /// patch instead of the cursor's own.
    func withFrame<R>(
        _ frame: Int, scratch: UnsafeMutableRawBufferPointer?, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        patch.lent = scratch
        defer { patch.lent = nil }
        if let scaled = scaledStill(frame) {
            if let refusal { throw refusal }
            let (width, height) = (delivery.width, delivery.height)
            let delivered = try delivery.deliverScaled(
                { out in
                    let done = try scaled.decodeScaled(step: 0, width: width, height: height, into: out)
                    if store.changed { throw AnimError.fileChanged(file, frame: frame) }
                    return done
                }, body)
            if let delivered { return delivered }
            if let canvasRefusal { refusal = canvasRefusal }
        }
        let compositor = try render(frame: frame)
        if store.changed {
            // Truncated under a mapping: the steps read zeros. This canvas
            // is not the file's; the frames delivered before it were.
            self.compositor = nil
            throw AnimError.fileChanged(file, frame: frame)
        }
        return try delivery.deliver(compositor, changed: lastChange, body)
    }

    /// The decoder that can shrink `frame` while decoding it, when `frame`
    /// is a still's only image, covering the canvas, delivered smaller on
    /// both axes: no canvas is made (a 24-megapixel WebP shown in a
    /// previewer's cells needed 96 MiB for it).
    private func scaledStill(_ frame: Int) -> ScaledStepDecoder? {
        guard compositor == nil, index.frameSteps[frame] == 0..<1 else { return nil }
        return Self.scaledStill(index: index, decoder: decoder, width: delivery.width, height: delivery.height)
    }

    /// The decoder of a still whose only image covers the canvas, when it
    /// shrinks that image to `width`×`height` (smaller than the canvas).
    static func scaledStill(index: FrameIndex, decoder: StepDecoder, width: Int, height: Int) -> ScaledStepDecoder? {
        guard let decoder = decoder as? ScaledStepDecoder, index.steps.count == 1,
            (width, height) != (index.width, index.height), width <= index.width, height <= index.height,
            index.steps[0].rect == Rect(x: 0, y: 0, width: index.width, height: index.height),
            decoder.scales(step: 0)
        else { return nil }
        return decoder
    }

    /// Brings the compositor to the last step of `frame`, starting from the
    /// canvas it holds or the nearest keyframe, whichever is closer.
    func render(frame: Int) throws -> Compositor {
        if let refusal { throw refusal }
        let compositor = self.compositor ?? Compositor(width: index.width, height: index.height, formula: index.formula)
        self.compositor = compositor
        let range = index.frameSteps[frame]
        lastChange = nil
        delivery.placedConverted = nil
        guard let target = range.last else {
            compositor.reset()
            compositor.canvas.update(repeating: 0)
            return compositor
        }
        let current = compositor.currentStep
        if current == target {
            lastChange = (current, Rect(x: 0, y: 0, width: 0, height: 0))
            return compositor
        }
        let key = index.keyAtOrBefore[target]
        var start = key
        if current >= 0 && current < target && current + 1 >= key { start = current + 1 }
        if start == key { compositor.reset() }
        var continued = current >= 0 && start == current + 1
        if let snapshot = checkpoints?.checkpoint(in: 0...frame)?.snapshot,
            snapshot.step <= target, snapshot.step + 1 > start
        {
            compositor.restore(snapshot)  // closer than the keyframe or the canvas
            continued = false
            start = snapshot.step + 1
            if snapshot.step == target {
                lastRequestedFrame = frame
                return compositor
            }
        }
        // Read in order, decode ahead past the target; otherwise only up to it.
        let sequential = frame == lastRequestedFrame + 1
        lastRequestedFrame = frame
        // (The prefetcher bounds what it starts by jobs, not steps.)
        let horizon = sequential && prefetcher != nil ? index.steps.count - 1 : target
        prefetcher?.cancel(outside: start...max(horizon, start))
        for s in start...target {
            if s < horizon { prefetcher?.schedule((s + 1)...horizon) }
            try draw(step: s, frame: frame, on: compositor)
        }
        if continued {
            // A step changes its rectangle; disposing of the step before
            // (to the background or the previous pixels) changes that
            // one's; a keyframe clears the canvas.
            let bounds = Rect(x: 0, y: 0, width: index.width, height: index.height)
            var rect = Rect(x: 0, y: 0, width: 0, height: 0)
            for s in start...target {
                let previous = index.steps[s - 1]
                if previous.dispose != .none { rect = rect.union(previous.rect) }
                rect = index.steps[s].isKey ? bounds : rect.union(index.steps[s].rect)
            }
            lastChange = (current, rect)
        }
        return compositor
    }

    /// Every `FrameCursor.checkpointInterval` steps past a keyframe, at the end of a
    /// frame, offers the canvas to the cache so later seeks can start here.
    /// Only when a checkpoint costs no more than the frames it spares a seek
    /// from decoding would cost to cache: with frames delivered much smaller
    /// than the canvas (a terminal player), full canvases are not worth it.
    /// Called by the cache once the frame just rendered is stored, so the
    /// checkpoint never competes with that frame for memory.
    func offerCheckpoint() {
        guard let compositor, compositor.currentStep >= 0 else { return }
        let s = compositor.currentStep
        guard let cache = checkpoints, index.frameEndingAt[s] >= 0 else { return }
        let sinceKey = s - index.keyAtOrBefore[s]
        let canvasBytes = index.width * index.height * 4
        let interval = Self.checkpointInterval
        guard sinceKey >= interval, sinceKey % interval == 0,
            canvasBytes <= interval * delivery.width * delivery.height * 4,
            cache.reserveCheckpoint(frame: index.frameEndingAt[s], cost: canvasBytes + compositor.saved.count),
            let snapshot = compositor.snapshot()
        else { return }
        cache.insertCheckpoint(snapshot, frame: index.frameEndingAt[s])
    }

    private func draw(step s: Int, frame: Int, on compositor: Compositor) throws {
        let step = index.steps[s]
        let route = compositor.begin(step: step, index: s, masked: decoder.writesMasked)
        do {
            if let prefetcher, let decoded = prefetcher.take(s) {
                defer { prefetcher.finished(decoded) }
                if let error = decoded.error { throw error }
                counts.decodedAhead += 1
                let patch = decoded.patch
                if let split = decoder as? SplitStepDecoder {
                    try decode(step: s, step, route: route, on: compositor) { target in
                        split.finish(step: s, prepared: UnsafeRawBufferPointer(patch), result: decoded.prepared, into: target)
                    }
                } else if decoded.converted {
                    // A replacing step: its converted patch is the converted
                    // canvas's rectangle (read before the buffer is reused;
                    // once adopted, it is the canvas's allocation).
                    let base = UnsafeRawPointer(patch.baseAddress!)
                    if compositor.replacesAll(step) && decoded.isAlone {
                        decoded.job.buffer = compositor.adopt(decoded.job.buffer)
                    } else {
                        compositor.place(step, patch: UnsafeRawBufferPointer(patch))
                    }
                    delivery.convertedCanvas().place(
                        step.rect, stored: base, converted: base + step.rect.width * step.rect.height * 4)
                    if s == index.frameSteps[frame].last { delivery.placedConverted = step.rect }
                    counts.convertedAhead += 1
                } else if compositor.replacesAll(step) && decoded.isAlone {
                    decoded.job.buffer = compositor.adopt(decoded.job.buffer)  // the old canvas goes back to the pool
                } else {
                    compositor.place(step, patch: UnsafeRawBufferPointer(patch))
                }
            } else {
                try decode(step: s, step, route: route, on: compositor) { try decoder.decode(step: s, into: $0) }
            }
        } catch let error as AnimError {
            compositor.reset()
            throw error.relabelled(frame: frame)
        }
        counts.decoded += 1
        compositor.end(step: step, index: s)
        store.release(0..<decoder.dataRange(step: s).upperBound)  // all read so far, read-ahead included
    }

    /// Decodes step `s` on this thread with `write` (the whole decode, or
    /// a split decoder's second part), where `begin` routed it.
    private func decode(
        step s: Int, _ step: Step, route: Compositor.Route, on compositor: Compositor,
        write: (PixelTarget) throws -> Void
    ) throws {
        switch route {
        case .canvas(let origin, let stride, let masked):
            try write(PixelTarget(base: origin, stride: stride, masked: masked))
        case .patch:
            let bytes = step.rect.width * step.rect.height * 4
            if bytes > 0 {
                let buffer = patchBuffer(bytes)
                try write(PixelTarget(base: buffer.baseAddress!, stride: step.rect.width * 4, masked: false))
                compositor.blend(step, patch: UnsafeRawBufferPointer(buffer))
            }
        }
    }

    /// The reused patch buffer, grown to at least `bytes`.
    private func patchBuffer(_ bytes: Int) -> UnsafeMutableRawBufferPointer {
        if let scratch = patch.lent, scratch.count >= bytes {
            return UnsafeMutableRawBufferPointer(rebasing: scratch[0..<bytes])
        }
        if (patch.own?.count ?? -1) < bytes {
            patch.own?.deallocate()
            patch.own = .allocate(byteCount: bytes, alignment: 16)
        }
        return UnsafeMutableRawBufferPointer(rebasing: patch.own![0..<bytes])
    }
}
