extension ImageSource {
    /// Frame `index` read for `store` (a frame cache): from it, or decoded
    /// (waiting for decode-ahead if it is compositing that frame) and kept
    /// there, costing `cost`; then the canvas is offered as a checkpoint.
    func frame(at index: Int, through store: some FrameStore, cost: Int) throws -> RGBAImage {
        ahead.claim(index)
        if let cached = store.image(at: index) { return cached }
        store.makeRoom(for: index, cost: cost)
        let image = try image(at: index, store: store)
        store.keep(image, at: index)
        offerCheckpoint(to: store)
        return image
    }

    /// Decodes ahead for `store` from after frame `index`, playing in
    /// `direction` (`DecodeAhead.frames`).
    func decodeAhead(
        after index: Int, direction: PlaybackDirection, wraps: Bool, cost: Int, into store: some FrameStore
    ) {
        ahead.frames(after: index, direction: direction, wraps: wraps, cost: cost, of: self, into: store)
    }

    /// Offers the canvas just rendered to `store` as a checkpoint
    /// (`FrameCursor.offerCheckpoint`).
    func offerCheckpoint(to store: some FrameStore) {
        cursor.withLock { $0.offerCheckpoint(to: store) }
    }
}
