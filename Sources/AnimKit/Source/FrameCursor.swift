/// The decoding state of an `ImageSource`: it brings the canvas to any
/// frame from the canvas it holds, a checkpoint of the store it is handed
/// or the nearest keyframe, whichever is closest. Not `Sendable`: the
/// `ImageSource` that owns it calls it with its lock held.
final class FrameCursor {
    /// What errors call the file.
    let file: String
    let index: FrameIndex
    let decoder: StepDecoder
    let store: ByteStore
    /// Decodes the next steps on other threads for direct reads (`render`).
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
    /// Whether frames may be decoded within `DecodingLimits.maxMemory`.
    var allowance: CanvasAllowance

    init(
        file: String, index: FrameIndex, decoder: StepDecoder, store: ByteStore, delivery: FrameDelivery,
        prefetcher: StepPrefetcher?, allowance: CanvasAllowance
    ) {
        (self.file, self.index, self.decoder, self.store) = (file, index, decoder, store)
        (self.delivery, self.prefetcher, self.allowance) = (delivery, prefetcher, allowance)
    }

    deinit { patch.own?.deallocate() }

    /// Lends `frame` as delivered to `body` (`ImageSource.withFrame`).
    func withFrame<R>(
        _ frame: Int, scratch: UnsafeMutableRawBufferPointer?, store frames: (any FrameStore)?,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        patch.lent = scratch
        defer { patch.lent = nil }
        if let delivered = try deliverScaled(frame, body) { return delivered }
        let compositor = try render(frame: frame, store: frames)
        if store.changed {
            // Truncated under a mapping: this canvas was drawn from zeros.
            self.compositor = nil
            throw AnimError(file: file, frame: frame, CommonProblem.fileChanged)
        }
        return try delivery.deliver(compositor, changed: lastChange, body)
    }

    /// Lends `frame` shrunk as it decodes (`scaledStill`) when no canvas is
    /// made yet; nil when it is not such a still, or its data sends it the usual way.
    private func deliverScaled<R>(_ frame: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        let (width, height) = (delivery.width, delivery.height)
        guard compositor == nil, index.frameSteps[frame] == 0..<1,
            let scaled = Self.scaledStill(index: index, decoder: decoder, width: width, height: height)
        else { return nil }
        if case .refused(let error) = allowance { throw error }
        let delivered = try delivery.deliverScaled(
            { out in
                let done = try scaled.decodeScaled(step: 0, width: width, height: height, into: out)
                if store.changed { throw AnimError(file: file, frame: frame, CommonProblem.fileChanged) }
                return done
            }, body)
        if delivered == nil, case .onlyScaled(let error) = allowance { allowance = .refused(error) }
        return delivered
    }

    /// The decoder of a still whose only image covers the canvas, when it shrinks
    /// that image to `width`×`height`, smaller than the canvas (no canvas is made).
    static func scaledStill(index: FrameIndex, decoder: StepDecoder, width: Int, height: Int) -> ScaledStepDecoder? {
        guard let decoder = decoder as? ScaledStepDecoder, index.steps.count == 1,
            (width, height) != (index.width, index.height), width <= index.width, height <= index.height,
            index.steps[0].rect == Rect(x: 0, y: 0, width: index.width, height: index.height),
            decoder.scales(step: 0)
        else { return nil }
        return decoder
    }

    /// Brings the compositor to the last step of `frame` (`firstStep`), and
    /// read directly and in order, decodes the steps after it ahead.
    func render(frame: Int, store: (any FrameStore)?) throws -> Compositor {
        if case .refused(let error) = allowance { throw error }
        let compositor = self.compositor ?? Compositor(width: index.width, height: index.height, formula: index.formula)
        self.compositor = compositor
        lastChange = nil
        delivery.placedConverted = nil
        guard let target = index.frameSteps[frame].last else {
            compositor.reset()
            compositor.canvas.update(repeating: 0)
            return compositor
        }
        let current = compositor.currentStep
        if current == target {
            lastChange = (current, Rect(x: 0, y: 0, width: 0, height: 0))
            return compositor
        }
        let start = firstStep(to: target, frame: frame, on: compositor, checkpoints: store)
        let sequential = frame == lastRequestedFrame + 1
        lastRequestedFrame = frame
        guard start <= target else { return compositor }  // a checkpoint at the target
        let ahead = store == nil ? prefetcher : nil
        // Read in order, decode ahead past the target (the prefetcher bounds
        // what it starts by jobs); otherwise only up to it.
        let horizon = sequential && ahead != nil ? index.steps.count - 1 : target
        prefetcher?.cancel(outside: ahead == nil ? nil : start...max(horizon, start))
        for s in start...target {
            if s < horizon { ahead?.schedule((s + 1)...horizon) }
            try draw(step: s, frame: frame, on: compositor, ahead: ahead)
        }
        if current >= 0 && start == current + 1 { lastChange = (current, changed(start...target)) }
        return compositor
    }

    /// The first step to draw to reach step `target` of `frame`: the one after
    /// the canvas held, when it is on the way; else the keyframe's (the
    /// compositor reset); or after a closer checkpoint of `checkpoints`
    /// (restored: `target + 1` when it is the target's).
    private func firstStep(to target: Int, frame: Int, on compositor: Compositor, checkpoints: (any FrameStore)?)
        -> Int
    {
        let current = compositor.currentStep
        let key = index.keyAtOrBefore[target]
        var start = key
        if current >= 0 && current < target && current + 1 >= key { start = current + 1 }
        if start == key { compositor.reset() }
        if let snapshot = checkpoints?.checkpoint(in: 0...frame)?.snapshot, snapshot.step <= target,
            snapshot.step + 1 > start
        {
            compositor.restore(snapshot)  // closer than the keyframe or the canvas
            start = snapshot.step + 1
        }
        return start
    }

    /// Where drawing `steps` over the canvas of the step before them changed
    /// it: a step changes its rectangle; disposing of the step before changes
    /// that one's; a keyframe clears the canvas.
    private func changed(_ steps: ClosedRange<Int>) -> Rect {
        let bounds = Rect(x: 0, y: 0, width: index.width, height: index.height)
        var rect = Rect(x: 0, y: 0, width: 0, height: 0)
        for s in steps {
            let previous = index.steps[s - 1]
            if previous.dispose != .none { rect = rect.union(previous.rect) }
            rect = index.steps[s].isKey ? bounds : rect.union(index.steps[s].rect)
        }
        return rect
    }

    /// Every `interval` steps past a keyframe, at the end of a frame, offers
    /// the canvas to `frames` for later seeks to start from, when it costs no
    /// more than caching the frames it spares a seek.
    func offerCheckpoint(to frames: any FrameStore) {
        guard let compositor, compositor.currentStep >= 0 else { return }
        let s = compositor.currentStep
        let sinceKey = s - index.keyAtOrBefore[s]
        let canvasBytes = index.width * index.height * 4
        let interval = 8
        guard index.frameEndingAt[s] >= 0, sinceKey >= interval, sinceKey % interval == 0,
            canvasBytes <= interval * delivery.width * delivery.height * 4
        else { return }
        frames.keepCheckpoint(frame: index.frameEndingAt[s], cost: canvasBytes + compositor.saved.count) {
            compositor.snapshot()
        }
    }
}
