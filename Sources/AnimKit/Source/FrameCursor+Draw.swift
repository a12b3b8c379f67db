extension FrameCursor {
    /// Draws step `s` of `frame`: decoded ahead if `ahead` has it, else decoded here.
    func draw(step s: Int, frame: Int, on compositor: Compositor, ahead: StepPrefetcher?) throws {
        let step = index.steps[s]
        let route = compositor.begin(step: step, index: s, masked: decoder.writesMasked)
        do {
            if let ahead, let decoded = ahead.take(s) {
                defer { ahead.finished(decoded) }
                try place(decoded, frame: frame, route: route, on: compositor)
            } else {
                try decode(step: s, route: route, on: compositor) { try decoder.decode(step: s, into: $0) }
            }
        } catch let error as AnimError {
            compositor.reset()
            throw error.relabelled(frame: frame)
        }
        counts.decoded += 1
        compositor.end(step: step, index: s)
        store.release(0..<decoder.dataRange(step: s).upperBound)  // all read so far, read-ahead included
    }

    /// Puts a step decoded ahead on the canvas: a split decoder's second
    /// part runs here; a patch is placed, or adopted as the canvas when it
    /// replaces all of it alone in its job (the old canvas goes back to the
    /// pool); a converted patch's second half goes to the converted canvas.
    private func place(_ decoded: StepPrefetcher.Decoded, frame: Int, route: Compositor.Route, on compositor: Compositor) throws {
        if let error = decoded.error { throw error }
        counts.decodedAhead += 1
        let (s, step) = (decoded.step, index.steps[decoded.step])
        let patch = decoded.patch
        if let split = decoder as? SplitStepDecoder {
            return try decode(step: s, route: route, on: compositor) { target in
                split.finish(step: s, prepared: UnsafeRawBufferPointer(patch), result: decoded.prepared, into: target)
            }
        }
        // (Read before the buffer is reused; once adopted, it is the canvas's allocation.)
        let base = UnsafeRawPointer(patch.baseAddress!)
        if compositor.replacesAll(step) && decoded.isAlone {
            decoded.job.buffer = compositor.adopt(decoded.job.buffer)
        } else {
            compositor.place(step, patch: UnsafeRawBufferPointer(patch))
        }
        guard decoded.converted else { return }
        // A replacing step: its converted patch is the converted canvas's rectangle.
        delivery.convertedCanvas().place(
            step.rect, stored: base, converted: base + step.rect.width * step.rect.height * 4)
        if s == index.frameSteps[frame].last { delivery.placedConverted = step.rect }
        counts.convertedAhead += 1
    }

    /// Decodes step `s` on this thread with `write` (the whole decode, or
    /// a split decoder's second part), where `begin` routed it.
    private func decode(
        step s: Int, route: Compositor.Route, on compositor: Compositor, write: (PixelTarget) throws -> Void
    ) throws {
        switch route {
        case .canvas(let origin, let stride, let masked):
            try write(PixelTarget(base: origin, stride: stride, masked: masked))
        case .patch:
            let step = index.steps[s]
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
