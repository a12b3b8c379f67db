extension Compositor {
    /// A copy of the compositor's state after a step: the canvas and what
    /// the next step needs (the step drawn, and the area saved for
    /// dispose-previous). Restoring it lets a seek start there.
    struct Snapshot: Sendable {
        let step: Int
        let info: Step
        let canvas: [UInt8]
        let saved: [UInt8]

        /// Bytes held.
        var cost: Int { canvas.count + saved.count }
    }

    /// The state now, or nil when no step is drawn.
    func snapshot() -> Snapshot? {
        guard currentStep >= 0, let info = currentInfo else { return nil }
        return Snapshot(step: currentStep, info: info, canvas: Array(canvas), saved: saved)
    }

    /// Puts the compositor back in the state `snapshot` recorded.
    func restore(_ snapshot: Snapshot) {
        precondition(snapshot.canvas.count == canvas.count, "compositor: snapshot of another canvas")
        snapshot.canvas.withUnsafeBufferPointer { src in
            canvas.baseAddress!.update(from: src.baseAddress!, count: src.count)
        }
        saved = snapshot.saved
        currentStep = snapshot.step
        currentInfo = snapshot.info
    }
}
