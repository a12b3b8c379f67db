/// Where a source keeps composited canvases (checkpoints) that later seeks
/// can start from instead of a keyframe. The source side owns this
/// protocol; `FrameCache` conforms, so a cache in front of a source
/// (`CachedFrameSource`) holds the checkpoints under the same byte budget
/// as its frames. The source holds its store weakly.
protocol CheckpointStore: AnyObject, Sendable {
    /// The checkpoint with the largest frame index in `frames`.
    func checkpoint(in frames: ClosedRange<Int>) -> (frame: Int, snapshot: Compositor.Snapshot)?
    /// Makes room for a checkpoint after `frame` costing `cost` bytes,
    /// before it is taken; false: do not take it.
    func reserveCheckpoint(frame: Int, cost: Int) -> Bool
    /// Keeps a checkpoint taken after `frame`, if it is worth its room.
    @discardableResult
    func insertCheckpoint(_ snapshot: Compositor.Snapshot, frame: Int) -> Bool
}
