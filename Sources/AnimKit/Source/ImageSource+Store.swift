extension ImageSource {
    /// Frame `index` read for `store` (a frame cache): from it, or decoded
    /// there (`decode(_:into:cost:)`), once decode-ahead is done with it if
    /// it is compositing that frame.
    func frame(at index: Int, through store: some FrameStore, cost: Int) throws -> RGBAImage {
        ahead.claim(index)
        return try store.image(at: index) ?? decode(index, into: store, cost: cost)
    }

    /// Decodes frame `index` into `store`, costing `cost`: room is made
    /// first, so that it and the frames it replaces never take memory
    /// together; once it is kept, the canvas is offered as a checkpoint
    /// (`FrameCursor.offerCheckpoint`), which then never competes with it.
    func decode(_ index: Int, into store: some FrameStore, cost: Int) throws -> RGBAImage {
        store.makeRoom(for: index, cost: cost)
        let image = try image(at: index, store: store)
        store.keep(image, at: index)
        cursor.withLock { $0.offerCheckpoint(to: store) }
        return image
    }
}
