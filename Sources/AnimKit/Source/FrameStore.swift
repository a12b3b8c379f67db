/// Where a source's reads keep what they decode: frames, and canvases
/// (checkpoints) that later seeks can start from. `FrameCache` conforms; a
/// store is handed to each read (`ImageSource.frame(at:through:cost:)`),
/// never kept, so control runs from the cache down.
protocol FrameStore: AnyObject, Sendable {
    /// The stored frame `index`, counting a hit or a miss.
    func image(at index: Int) -> RGBAImage?
    /// Whether frame `index`, costing `cost`, is worth decoding ahead: nil
    /// when it is held already, else whether it would be kept.
    func wantsAhead(_ index: Int, cost: Int) -> Bool?
    /// Evicts what must go for frame `index` (costing `cost`) to fit, before it is decoded.
    func makeRoom(for index: Int, cost: Int)
    /// Keeps frame `index`, decoded for the store (counted as a decode).
    func keep(_ image: RGBAImage, at index: Int)
    /// The checkpoint with the largest frame index in `frames`.
    func checkpoint(in frames: ClosedRange<Int>) -> (frame: Int, snapshot: Compositor.Snapshot)?
    /// Keeps a checkpoint after `frame` costing `cost` bytes, if it is worth
    /// its room: room is made before `take` takes it, so that it and what it
    /// replaces never take memory together.
    func keepCheckpoint(frame: Int, cost: Int, _ take: () -> Compositor.Snapshot?)
}
